import Foundation
import Glibc
import Testing
import TabulaClient
import TabulaServer

/// `--unix PATH`: the same protocol on a local socket, mode 0660.
@Suite struct UnixSocketTests {
    static func socketPath() -> String { tempDB() + ".sock" }

    @Test func theUnixSocketServesTheProtocolWithModeSixSixty() throws {
        let path = Self.socketPath()
        try withServer({ $0.unixPath = path }) { s in
            var st = stat()
            #expect(stat(path, &st) == 0)
            #expect(st.st_mode & 0o777 == 0o660)
            let local = try TabulaConnection(.unix(path), timeout: 30)
            let tcp = try connect(s)
            #expect(try tcp.request("WATCH /orders").isOK)
            #expect(try local.request("ORDER pesto").isOK)
            #expect(try tcp.waitPush(timeout: 5) { $0.contains("Pesto") } != nil)
        }
        #expect(access(path, F_OK) != 0, "the socket is removed at stop")
    }

    @Test func aStaleSocketIsReplacedAndAnyOtherFileRefused() throws {
        let path = Self.socketPath()
        try withServer({ $0.unixPath = path }) { _ in }
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        _ = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        close(stale)  // a socket file whose server is gone
        try withServer({ $0.unixPath = path }) { _ in
            let c = try TabulaConnection(.unix(path), timeout: 30)
            #expect(try c.request("PING").isOK)
        }
        let file = Self.socketPath()
        #expect(FileManager.default.createFile(atPath: file, contents: Data("notes".utf8)))
        #expect(throws: ServerError.self) { try withServer({ $0.unixPath = file }) { _ in } }
        #expect(FileManager.default.contents(atPath: file) == Data("notes".utf8), "the file was left alone")
    }
}
