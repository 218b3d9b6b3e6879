import Foundation
import Testing
import TabulaClient
import TabulaServer

/// What one RESP connection may hold, over real sockets: a request of more elements than
/// the loop holds is refused at its header, and one begun and never finished counts as
/// incomplete input, so the stall timeout and the server's bound see it.
@Suite struct RESPBoundsTests {
    @Test func aSubscribeOfAMillionPrefixesIsRefusedAtItsHeader() throws {
        try withServer { s in
            let r = try RESPTestClient(port: s.port)
            #expect(try r.call("PING") == .simple("PONG"))
            r.sendRaw(
                Array("*1048576\r\n$9\r\nSUBSCRIBE\r\n".utf8)
                    + Array(repeating: Array("$0\r\n\r\n".utf8), count: 10_000).joined())
            #expect(try r.read() == .error("ERR Protocol error: multibulk length 1048576 is over 4096 elements"))
            #expect(r.closedByServer())
            #expect(try connect(s).request("PING").final == "OK PONG")
        }
    }

    @Test func anUnfinishedRequestOfEmptyElementsIsClosedByTheStallTimeout() throws {
        try withServer({ $0.stallTimeout = 1 }) { s in
            let r = try RESPTestClient(port: s.port)
            #expect(try r.call("PING") == .simple("PONG"), "one complete request first")
            r.sendRaw(Array("*4000\r\n".utf8) + Array(repeating: Array("$0\r\n\r\n".utf8), count: 3_999).joined())
            #expect(r.closedByServer(timeout: 10), "closed as stalled")
        }
    }
}
