import Testing
import TabulaClient

@Suite("The servers a client may fail over between")
struct HostListTests {
    @Test("--host takes repeats and comma lists of host or host:port, with --port for the rest")
    func parsesHosts() throws {
        let l = try HostList(["a:1", "b,c:3", "[::1]:4", "[::1]"], defaultPort: 8228, tls: false, caFile: nil)
        #expect(
            l.endpoints == [
                .tcp(host: "a", port: 1), .tcp(host: "b", port: 8228), .tcp(host: "c", port: 3),
                .tcp(host: "::1", port: 4), .tcp(host: "::1", port: 8228),
            ])
        #expect(
            try HostList(["a"], defaultPort: 9, tls: true, caFile: "ca.pem").endpoints == [
                .tls(host: "a", port: 9, caFile: "ca.pem")
            ])
    }

    @Test("a bad entry is refused with what was wrong")
    func refusesBadHosts() {
        for bad in ["a:0", "a:x", "a,,b", "[::1", "[::1]x"] {
            #expect(throws: HostListError.self) { try HostList([bad], defaultPort: 1, tls: false, caFile: nil) }
        }
    }

    @Test("after losing a server the client tries the next ones in turn, the lost one last")
    func failoverOrder() throws {
        let l = try HostList(["a,b,c"], defaultPort: 1, tls: false, caFile: nil)
        #expect(l.failoverOrder(after: 0) == [1, 2, 0])
        #expect(l.failoverOrder(after: 2) == [0, 1, 2])
        #expect(HostList(endpoints: [.unix("/s")]).failoverOrder(after: 0) == [0])
    }
}
