import Foundation
import Testing
import TabulaServer

/// A RESP connection has one version, whichever way it logs in: `HELLO 3 AUTH` makes every
/// later reply RESP3 (codec answers included, in the same read too), and `AUTH` over RESP2
/// answers `+OK`, as Redis clients require.
@Suite struct RESPLoginTests {
    @Test func afterHelloThreeAuthWatchAndConfigAnswerInRESP3() throws {
        try AccessControlTests.withUsers { s in
            let r = try RESPTestClient(port: s.port)
            let hello = try r.call("HELLO", "3", "AUTH", "ci", "pw-ci")
            #expect(hello["proto"] == .integer(3), "\(hello)")
            #expect(try r.call("CONFIG", "GET", "maxmemory") == .map([]), "RESP3's empty map, not RESP2's *0")
            #expect(
                try r.call("WATCH", "/items") == .simple("watching /items at rev 0"),
                "RESP3's WATCH is a command, not a subscribe push")
            guard case .array = try r.call("LS", "/items") else {
                Issue.record("LS refused after WATCH on RESP3"); return
            }
        }
    }

    @Test func repliesPipelinedBehindHelloThreeAuthAreRESP3() throws {
        try AccessControlTests.withUsers { s in
            let r = try RESPTestClient(port: s.port)
            r.sendRaw(
                RESPTestClient.encode(["HELLO", "3", "AUTH", "ci", "pw-ci"])
                    + RESPTestClient.encode(["CONFIG", "GET", "maxmemory"])
                    + RESPTestClient.encode(["WATCH", "/orders"])
                    + RESPTestClient.encode(["PING"]))
            #expect(try r.read()["proto"] == .integer(3))
            #expect(try r.read() == .map([]))
            #expect(try r.read() == .simple("watching /orders at rev 0"))
            #expect(try r.read() == .simple("PONG"))
        }
    }

    @Test func aRefusedHelloThreeAuthLeavesTheConnectionOnRESP2() throws {
        try AccessControlTests.withUsers { s in
            let r = try RESPTestClient(port: s.port)
            guard case .error(let e) = try r.call("HELLO", "3", "AUTH", "ci", "wrong") else {
                Issue.record("a wrong secret was taken"); return
            }
            #expect(e.hasPrefix("WRONGPASS"))
            #expect(try r.call("AUTH", "ci", "pw-ci") == .simple("OK"))
            #expect(try r.call("CONFIG", "GET", "maxmemory") == .array([]), "still RESP2: *0")
        }
    }

    @Test func anAuthOverRESP2AnswersOKAndWatchIsThenASubscription() throws {
        try AccessControlTests.withUsers { s in
            let r = try RESPTestClient(port: s.port)
            #expect(try r.call("AUTH", "ci", "pw-ci") == .simple("OK"))
            #expect(try r.call("CONFIG", "GET", "maxmemory") == .array([]))
            #expect(
                try r.call("WATCH", "/items") == .array([.bulk("subscribe"), .bulk("/items"), .integer(1)]),
                "RESP2's WATCH enters subscribe mode")
        }
    }
}
