import Foundation
import Testing
import TabulaServer

/// What Redis's own tools read, over real sockets: ECHO byte for byte (redis-cli --pipe ends
/// its input with one), and INFO with the port taken and the fields --stat reads.
@Suite struct RESPToolsTests {
    @Test func echoAnswersItsMessageByteForByteEvenWhenItIsNotUTF8() throws {
        try withServer { s in
            let r = try RESPTestClient(port: s.port)
            #expect(try r.call("ECHO", "hi") == .bulk("hi"))
            let bytes: [UInt8] = [0xFF, 0x00, 0xC3, 0x28, 0x0D, 0x0A, 0x41]
            r.sendRaw(
                Array("*2\r\n$4\r\necho\r\n$\(bytes.count)\r\n".utf8) + bytes + Array("\r\n*1\r\n$4\r\nPING\r\n".utf8))
            let expected = Array("$7\r\n".utf8) + bytes + Array("\r\n+PONG\r\n".utf8)
            let deadline = Date().addingTimeInterval(10)
            while r.unread.count < expected.count, r.fill(until: deadline) {}
            #expect(r.unread == expected, "the bytes back as they came, then the next reply")
        }
    }

    @Test func infoReportsThePortTakenAndTheFieldsRedisToolsRead() throws {
        try withServer { s in
            let r = try RESPTestClient(port: s.port)
            guard case .bulk(let info) = try r.call("INFO") else { Issue.record("INFO is not a bulk string"); return }
            #expect(info.contains("tcp_port:\(s.port)\r\n") && s.port != 0, "\(info)")
            for field in [
                "redis_version:", "connected_clients:", "used_memory:", "total_commands_processed:",
                "total_connections_received:", "# Keyspace",
            ] {
                #expect(info.contains(field), "\(field) missing")
            }
        }
    }
}
