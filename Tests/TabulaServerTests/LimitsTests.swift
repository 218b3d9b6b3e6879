import Foundation
import Glibc
import Testing
import TabulaClient
import TabulaServer
import TabulaStorage

/// Per-connection bounds and the messages of refusals at start.
@Suite struct LimitsTests {
    @Test func aConnectionMayWatchAtMost1024PrefixesAndIsToldWhatToDo() throws {
        try withServer { s in
            let c = try connect(s)
            for i in 0..<1024 { try c.line.send("WATCH /items/\(1000 + i)") }
            for _ in 0..<1024 { #expect(try c.readReply(timeout: 10).reply.error == nil) }
            let over = try c.request("WATCH /items/2024")
            #expect(over.final.hasPrefix("ERR LIMIT this connection watches 1024 prefixes already"), "\(over.final)")
            #expect(try c.request("WATCH /items/1007").isOK, "a prefix it watches already is not one more")
            #expect(try c.request("UNWATCH /items/1000").isOK)
            #expect(try c.request("WATCH /items/2024").isOK, "after an UNWATCH there is room again")
        }
    }

    @Test func anHTTPPortInUseNamesHTTPNotPort() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        _ = listen(fd, 1)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        let taken = Int(UInt16(bigEndian: addr.sin_port))
        var config = ServerConfig()
        config.port = 0
        config.httpPort = taken
        #expect {
            _ = try Server(config: config, store: MemoryStore())
        } throws: { error in
            let said = "\(error)"
            return said.contains("127.0.0.1:\(taken) (--http)") && said.contains("pick another with --http")
        }
    }

    @Test func tabulaPointedAtTheHTTPPortSaysSoInsteadOfWaitingForAGreeting() throws {
        try withServer({ $0.httpPort = 0 }) { s in
            let http = try #require(s.httpPort)
            #expect(
                throws: ClientError.connectFailed(
                    "127.0.0.1:\(http) is an HTTP port (tabulad's --http?), not the line protocol's; connect to tabulad's --port (8228 by default)"
                )
            ) {
                _ = try TabulaConnection(host: "127.0.0.1", port: http, timeout: 30)
            }
        }
    }

    @Test func aConnectionAskingClientsInItsFirstSecondIsListed() throws {
        try withServer { s in
            let c = try connect(s)
            let r = try c.request("CLIENTS")
            #expect(r.final == "OK 1 client" && r.data.count == 1, "\(r.lines)")
        }
    }
}
