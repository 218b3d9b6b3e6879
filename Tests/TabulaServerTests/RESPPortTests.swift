import Foundation
import Testing
import TabulaClient
import TabulaServer

/// `--resp-port`: RESP from the first byte, over real sockets. A client that waits before its
/// first command (a pool's idle connection) is never greeted as a line client, and inline
/// commands are read as Redis reads them.
@Suite struct RESPPortTests {
    @Test func aClientSilentPastTheGreetingDelayIsAnsweredInRESPWithNothingBefore() throws {
        try withServer({ $0.respPort = 0 }) { s in
            let r = try RESPTestClient(port: try #require(s.respPort))
            // A line client on the plain port is greeted once the delay has passed: the
            // signal that the RESP connection, connected before it, has been silent as long.
            let line = try LineConnection(host: "127.0.0.1", port: s.port)
            #expect(try line.readLine(timeout: 5)?.hasPrefix("* HELLO") == true)
            r.sendRaw(Array("PING\r\n".utf8))
            #expect(try r.read() == .simple("PONG"), "an inline PING, answered in RESP")
            #expect(
                try r.call("LS", "/settings")
                    == .array([.bulk("my-string/  My String: Yellow"), .bulk("my-int/  My Int: 16")]))
        }
    }

    @Test func theRESPPortTakesHelloAndLoginsAsTheLinePortDoes() throws {
        try AccessControlTests.withUsers({ $0.respPort = 0 }) { s in
            let r = try RESPTestClient(port: try #require(s.respPort))
            guard case .error(let e) = try r.call("LS", "/items") else { Issue.record("LS before AUTH ran"); return }
            #expect(e.hasPrefix("NOAUTH"))
            #expect(try r.call("HELLO", "3", "AUTH", "ci", "pw-ci")["proto"] == .integer(3))
            #expect(try r.call("CONFIG", "GET", "save") == .map([.bulk("save"), .bulk("")]))
        }
    }

    @Test func configGetAnswersSaveAndAppendonlyAsRedisBenchmarkReadsThem() throws {
        try withServer({ $0.respPort = 0 }) { s in
            let r = try RESPTestClient(port: try #require(s.respPort))
            #expect(try r.call("CONFIG", "GET", "save") == .array([.bulk("save"), .bulk("")]))
            #expect(try r.call("CONFIG", "GET", "appendonly") == .array([.bulk("appendonly"), .bulk("no")]), "memory")
            #expect(try r.call("CONFIG", "GET", "maxmemory") == .array([]), "a name not kept: nothing, as Redis")
        }
    }

    @Test func latencyIsAnsweredEmptyAsTheRedisExporterAsksIt() throws {
        try withServer({ $0.respPort = 0 }) { s in
            let r = try RESPTestClient(port: try #require(s.respPort))
            #expect(
                try r.call("LATENCY", "LATEST") == .array([]),
                "no latency events recorded: none (the exporter logged an unknown command)")
        }
    }
}
