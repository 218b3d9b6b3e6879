import Foundation
import Testing
import TabulaClient
import TabulaServer

/// RESP on the line port, over real sockets: how a connection's codec is chosen, Redis's
/// connection commands, replies, subscribe mode and RESP3 pushes, logins and bounds.
@Suite struct RESPServerTests {
    @Test func aMultibulkFirstRequestIsAnsweredInRESPWithNoGreetingBeforeIt() throws {
        try withServer { s in
            let r = try RESPTestClient(port: s.port)
            #expect(try r.call("PING") == .simple("PONG"))
            #expect(
                try r.call("LS", "/settings")
                    == .array([.bulk("my-string/  My String: Yellow"), .bulk("my-int/  My Int: 16")]))
        }
    }

    @Test func aLineClientThatSpeaksFirstIsGreetedBeforeItsFirstReply() throws {
        try withServer { s in
            let c = try LineConnection(host: "127.0.0.1", port: s.port)
            try c.send("PING")
            #expect(try c.readLine(timeout: 5)?.hasPrefix("* HELLO tabula 3 ") == true)
            #expect(try c.readLine(timeout: 5) == "OK PONG")
        }
    }

    @Test func aSilentLineClientIsGreetedAfterTheDelay() throws {
        try withServer { s in
            let c = try LineConnection(host: "127.0.0.1", port: s.port)
            let began = Date()
            #expect(try c.readLine(timeout: 5)?.hasPrefix("* HELLO tabula 3 ") == true)
            let waited = Date().timeIntervalSince(began)
            #expect(
                waited >= 0.09 && waited < 2,
                "greeted after \(waited) s, not after the 100 ms a RESP client gets to speak first")
        }
    }

    @Test func aRESPWriteCarryingANULIsRefusedAndChangesNothing() throws {
        try withServer { s in
            let r = try RESPTestClient(port: s.port)
            let before = try r.call("SHOW", "/settings/my-string")
            let refused = try r.call("SET", "/settings/my-string", "title=a\u{0}b")
            guard case .error(let e) = refused else { return #expect(Bool(false), "taken: \(refused)") }
            #expect(e.hasPrefix("INVALID") && e.contains("NUL"), "\(e)")
            #expect(try r.call("SHOW", "/settings/my-string") == before)
        }
    }

    @Test func helloThreeAnswersRedissMapAndSwitchesRepliesToRESP3() throws {
        try withServer { s in
            let r = try RESPTestClient(port: s.port)
            let hello = try r.call("HELLO", "3")
            guard case .map = hello else { Issue.record("HELLO 3 gave \(hello)"); return }
            #expect(hello["server"] == .bulk("tabulad"))
            #expect(hello["proto"] == .integer(3))
            #expect(hello["mode"] == .bulk("standalone"))
            guard case .integer(let id)? = hello["id"] else { Issue.record("no id"); return }
            #expect(try r.call("CLIENT", "ID") == .integer(id))
            let ls = try r.call("LS", "/settings")
            guard case .array(let rows) = ls, case .map = rows.first else {
                Issue.record("LS in RESP3 gave \(ls)"); return
            }
            #expect(rows.first?["name"] == .bulk("my-string"))
        }
    }

    @Test func anInlineHelloOpensRESPAsRedisReadsInlineCommands() throws {
        try withServer { s in
            let r = try RESPTestClient(port: s.port)
            r.sendRaw(Array("HELLO 2\r\nPING\r\n".utf8))
            #expect(try r.read()["proto"] == .integer(2))
            #expect(try r.read() == .simple("PONG"))
        }
    }

    @Test func aChangeIsItsMessageWithItsRevisionAndAnErrorItsCode() throws {
        try withServer { s in
            let r = try RESPTestClient(port: s.port)
            #expect(try r.call("SELECT", "/settings/my-int", "#3") == .simple("My Int: 32 rev=1"))
            #expect(
                try r.call("SELECT", "/settings/my-itn", "#3")
                    == .error("NOTFOUND no /settings/my-itn; did you mean /settings/my-int?"))
            #expect(
                try r.call("ADD", "/items", "Red Chair", "42") == .simple("/items/5 in cheap-items rev=2"),
                "a word with a space needs no quoting")
        }
    }

    @Test func selectWithANumberIsRedissDatabaseChoiceAndOnlyZeroExists() throws {
        try withServer { s in
            let r = try RESPTestClient(port: s.port)
            #expect(try r.call("SELECT", "0") == .simple("OK"))
            guard case .error(let e) = try r.call("SELECT", "1") else { Issue.record("SELECT 1 was accepted"); return }
            #expect(e.hasPrefix("INVALID DB index is out of range"))
        }
    }

    @Test func subscribeDeliversEachChangeAsAMessageOnTheWatchedPrefix() throws {
        try withServer { s in
            let sub = try RESPTestClient(port: s.port)
            #expect(
                try sub.call("SUBSCRIBE", "/orders") == .array([.bulk("subscribe"), .bulk("/orders"), .integer(1)]))
            let writer = try RESPTestClient(port: s.port)
            #expect(try writer.call("ORDER", "/menu/pizza/margherita") == .simple("order 1: Margherita rev=1"))
            let m = try sub.read()
            guard case .array(let parts) = m, parts.count == 3, case .bulk(let json) = parts[2] else {
                Issue.record("got \(m)"); return
            }
            #expect(parts[0] == .bulk("message") && parts[1] == .bulk("/orders"))
            #expect(json.contains(#""kind":"order","path":"/orders/1""#))
        }
    }

    /// One loop: the write completes on it, its message queued for the subscriber at once.
    @Test func onOneLoopASubscriberGetsTheMessageBeforeThePongItAsksForAfterTheWritersOK() throws {
        try withServer({ $0.ioThreads = 1 }) { s in
            let sub = try RESPTestClient(port: s.port)
            _ = try sub.call("SUBSCRIBE", "/orders")
            let writer = try RESPTestClient(port: s.port)
            for k in 1...20 {
                #expect(
                    try writer.call("ORDER", "/menu/pizza/margherita") == .simple("order \(k): Margherita rev=\(k)"))
                sub.send("PING", "\(k)")  // the writer holds its OK
                let m = try sub.read()
                guard case .array(let parts) = m, parts.count == 3, case .bulk(let json) = parts[2] else {
                    Issue.record("order \(k): got \(m) before the message"); return
                }
                #expect(json.contains(#""rev":\#(k),"#))
                #expect(try sub.read() == .array([.bulk("pong"), .bulk("\(k)")]))
            }
        }
    }

    @Test func resp2SubscribeModeTakesOnlyWatchUnwatchPingAndQuit() throws {
        try withServer { s in
            let r = try RESPTestClient(port: s.port)
            _ = try r.call("SUBSCRIBE", "/settings", "/orders")  // two confirmations
            #expect(try r.read() == .array([.bulk("subscribe"), .bulk("/orders"), .integer(2)]))
            guard case .error(let e) = try r.call("LS", "/settings") else {
                Issue.record("LS ran in subscribe mode"); return
            }
            #expect(e.hasPrefix("INVALID Can't execute 'ls': only WATCH/SUBSCRIBE"))
            #expect(try r.call("PING") == .array([.bulk("pong"), .bulk("")]), "Redis's PING in subscribe mode")
            #expect(try r.call("PING", "hi") == .array([.bulk("pong"), .bulk("hi")]))
            #expect(try r.call("UNSUBSCRIBE") == .array([.bulk("unsubscribe"), .null, .integer(0)]))
            #expect(try r.call("PING") == .simple("PONG"), "out of subscribe mode, PING is PONG again")
            guard case .array = try r.call("LS", "/settings") else {
                Issue.record("LS refused after UNSUBSCRIBE"); return
            }
        }
    }

    @Test func resp3KeepsEveryCommandWhileWatchingAndEventsArePushes() throws {
        try withServer { s in
            let r = try RESPTestClient(port: s.port)
            _ = try r.call("HELLO", "3")
            #expect(
                try r.call("WATCH", "/settings") == .simple("watching /settings at rev 0"),
                "Tabula's WATCH is a command like any other here")
            #expect(
                try r.call("SUBSCRIBE", "/orders") == .push([.bulk("subscribe"), .bulk("/orders"), .integer(2)]),
                "Redis's SUBSCRIBE is confirmed by a push, as Redis does")
            guard case .array = try r.call("LS", "/settings") else { Issue.record("LS refused in RESP3"); return }
            let w = try RESPTestClient(port: s.port)
            _ = try w.call("SELECT", "/settings/my-int", "64")
            let e = try r.read()
            guard case .push(let parts) = e else { Issue.record("got \(e)"); return }
            #expect(parts.first == .bulk("message") && parts.dropFirst().first == .bulk("/settings"))
        }
    }

    @Test func watchFromReplaysWhatWasMissedAsMessagesAfterItsConfirmation() throws {
        try withServer { s in
            let w = try RESPTestClient(port: s.port)
            for entry in ["margherita", "pepperoni", "quattro-formaggi"] {
                _ = try w.call("ORDER", "/menu/pizza/\(entry)")
            }
            let r = try RESPTestClient(port: s.port)
            #expect(
                try r.call("WATCH", "/orders", "FROM", "1")
                    == .array([.bulk("subscribe"), .bulk("/orders"), .integer(1)]))
            for rev in [2, 3] {
                guard case .array(let m) = try r.read(), case .bulk(let json) = m[2] else {
                    Issue.record("no replayed message"); return
                }
                #expect(json.contains(#""rev":\#(rev)"#))
            }
            // The replay's end: a message of its own kind on the channel.
            guard case .array(let end) = try r.read(), case .bulk(let synced) = end[2] else {
                Issue.record("no synced message"); return
            }
            #expect(synced == #"{"push":"synced","rev":3}"#)
            _ = try w.call("ORDER", "/menu/pasta/carbonara")
            guard case .array(let live) = try r.read(), case .bulk(let json) = live[2] else {
                Issue.record("no live message"); return
            }
            #expect(json.contains(#""rev":4"#))
        }
    }

    @Test func aProtocolErrorIsTheLastReplyAndClosesTheConnection() throws {
        try withServer { s in
            let r = try RESPTestClient(port: s.port)
            #expect(try r.call("PING") == .simple("PONG"))
            r.sendRaw(Array("*1\r\n:5\r\n".utf8))
            #expect(try r.read() == .error("ERR Protocol error: expected '$', got ':'"))
            #expect(r.closedByServer())
            #expect(try connect(s).request("PING").final == "OK PONG", "the server goes on")
        }
    }

    @Test func beforeALoginRedissBoundsHoldAndAuthOpensTheUsersGrants() throws {
        try AccessControlTests.withUsers { s in
            let r = try RESPTestClient(port: s.port)
            guard case .error(let e) = try r.call("LS", "/items") else { Issue.record("LS before AUTH ran"); return }
            #expect(e.hasPrefix("NOAUTH"))
            #expect(try r.call("AUTH", "ci", "pw-ci") == .simple("OK"), "Redis clients read nothing but +OK")
            guard case .error(let denied) = try r.call("SHOW", "/settings/my-int") else {
                Issue.record("a grant was ignored"); return
            }
            #expect(denied.hasPrefix("NOPERM") || denied.hasPrefix("NOTFOUND"))
            let flood = try RESPTestClient(port: s.port)
            flood.sendRaw(Array("*11\r\n".utf8))
            #expect(try flood.read() == .error("ERR Protocol error: unauthenticated multibulk length"))
            #expect(flood.closedByServer())
        }
    }

    @Test func aOneWordAuthLogsInAsTheDefaultUser() throws {
        try withServer({ $0.users = ["default": AccessControlTests.user("default", .read)] }) { s in
            let r = try RESPTestClient(port: s.port)
            #expect(try r.call("AUTH", "pw-default") == .simple("OK"))
            guard case .simple(let who) = try r.call("WHOAMI"), who.hasPrefix("default read") else {
                Issue.record("WHOAMI does not say who"); return
            }
            guard case .error(let e) = try r.call("AUTH", "wrong") else {
                Issue.record("a wrong secret was taken"); return
            }
            #expect(e.hasPrefix("WRONGPASS"))
        }
    }

    @Test func clientSetNameIsShownInClients() throws {
        try withServer { s in
            let r = try RESPTestClient(port: s.port)
            #expect(try r.call("CLIENT", "SETNAME", "dashboard") == .simple("OK"))
            #expect(try r.call("CLIENT", "GETNAME") == .bulk("dashboard"))
            #expect(
                try r.call("CLIENT", "SETNAME", String(repeating: "n", count: 129))
                    == .error("SYNTAX a client name is at most 128 bytes"),
                "each connection keeps its name: it is bounded")
            #expect(try r.call("CLIENT", "GETNAME") == .bulk("dashboard"))
            let admin = try connect(s)
            #expect(
                try eventually {
                    try admin.request("CLIENTS").data.contains { $0.contains("proto=resp2  name=dashboard") }
                })
        }
    }

    @Test func formatIsRefusedSinceARESPConnectionKeepsRESP() throws {
        try withServer { s in
            let r = try RESPTestClient(port: s.port)
            #expect(
                try r.call("FORMAT", "json")
                    == .error("INVALID a RESP connection keeps RESP; HELLO 2 or HELLO 3 chooses its version"))
            #expect(try r.call("PING") == .simple("PONG"))
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrderOneEach() throws {
        try withServer { s in
            let r = try RESPTestClient(port: s.port)
            var bytes: [UInt8] = []
            for i in 0..<200 {
                bytes += RESPTestClient.encode(
                    i % 3 == 0 ? ["SELECT", "/settings/my-int", "#\(i % 4 + 1)"] : ["PING", "p\(i)"])
            }
            r.sendRaw(bytes)
            for i in 0..<200 {
                let v = try r.read()
                if i % 3 == 0 {
                    guard case .simple(let m) = v else { Issue.record("reply \(i): \(v)"); return }
                    #expect(m.hasPrefix("My Int: ") && m.hasSuffix("rev=\(i / 3 + 1)"), "reply \(i): \(m)")
                } else {
                    #expect(v == .simple("p\(i)"), "reply \(i)")
                }
            }
        }
    }
}
