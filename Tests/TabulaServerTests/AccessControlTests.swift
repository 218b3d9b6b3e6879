import Foundation
import Testing
import TabulaAccess
import TabulaClient
import TabulaModel
import TabulaProtocol
import TabulaServer
import TabulaStorage

/// With `--users`, every rule over real sockets: NOAUTH before AUTH, WRONGPASS with a delay
/// that grows, each role's verbs, grants on reads, writes, watches and replays, and reloads.
@Suite struct AccessControlTests {
    static func user(_ name: String, _ role: Role, allow: [String] = [], deny: [String] = []) -> UserEntry {
        UserEntry(
            name: name, role: role, grants: Grants(allow: allow, deny: deny),
            hash: PasswordHash.make("pw-\(name)", iterations: 1_000))
    }

    /// `name` with a new role and grants and the same secret (the same hash).
    static func regranted(_ name: String, _ role: Role, allow: [String] = [], deny: [String] = []) -> UserEntry {
        UserEntry(name: name, role: role, grants: Grants(allow: allow, deny: deny), hash: users[name]!.hash)
    }

    static let users: [String: UserEntry] = [
        "reader": user("reader", .read),
        "writer": user("writer", .write),
        "admin": user("admin", .admin),
        "ci": user("ci", .write, allow: ["/items", "/orders"], deny: ["/items/3"]),
        "ops": user("ops", .write, allow: ["/orders"]),
        "diner": user("diner", .write, deny: ["/menu/pizza/margherita", "/settings/my-int"]),
        "browser": user("browser", .read, allow: ["/catalog/item-2"]),
    ]

    static func withUsers(
        _ configure: (inout ServerConfig) -> Void = { _ in }, store: StateStore = MemoryStore(),
        _ body: (Server) throws -> Void
    ) throws {
        try withServer(
            {
                $0.users = Self.users
                configure(&$0)
            }, store: store, body)
    }

    static func login(_ s: Server, _ name: String) throws -> TabulaConnection {
        let c = try connect(s)
        let r = try c.request("AUTH \(name) pw-\(name)")
        #expect(r.isOK, "\(r.final)")
        return c
    }

    @Test func aSyncThatMustWaitIsRefusedBeforeALoginNotAnsweredWithTheRevision() throws {
        try Self.withUsers { s in
            let c = try connect(s)
            let r = try c.request("SYNC 1000000 TIMEOUT 100")
            #expect(r.final == "ERR NOAUTH authentication required; AUTH name secret", "\(r.final)")
        }
    }

    @Test func beforeAuthOnlyAuthPingHelpAndQuitAreAnswered() throws {
        try Self.withUsers { s in
            let c = try connect(s)
            #expect(try c.request("LS").final == "ERR NOAUTH authentication required; AUTH name secret")
            #expect(try c.request("WATCH /").reply.error?.code == .noAuth)
            #expect(try c.request("FORMAT json").reply.error?.code == .noAuth)
            #expect(try c.request("PING").final == "OK PONG")
            #expect(try c.request("HELP AUTH").isOK)
            #expect(try c.request("AUTH reader pw-reader").final == "OK reader read")
            #expect(try c.request("WHOAMI").final == "OK reader read all paths")
            #expect(try c.request("LS").isOK)
        }
    }

    @Test func aWrongNameAndAWrongSecretGetTheSameAnswerLaterEachTimeWhileOthersAreServed() throws {
        try Self.withUsers { s in
            let c = try connect(s), other = try connect(s)
            var waits: [Double] = []
            for line in ["AUTH nobody pw-nobody", "AUTH reader wrong", "AUTH reader wrong"] {
                try c.line.send(line)
                let start = Date()
                // Served while the failing AUTH waits out its delay: answered before it is.
                try other.line.send("PING")
                #expect(try other.readReply().isOK)
                _ = c.line.readAvailable()  // whatever has come for the failing one
                #expect(c.line.bufferedLine() == nil, "another client was answered only after a failing AUTH")
                #expect(try c.readReply().final == "ERR WRONGPASS wrong name or secret")
                waits.append(Date().timeIntervalSince(start))  // a lower bound the server adds on purpose
            }
            #expect(waits[0] >= 0.25 && waits[1] >= 0.5 && waits[2] >= 1.0, "\(waits)")
            #expect(try c.request("AUTH reader pw-reader").isOK, "the right secret still works")
            #expect(try c.request("AUTH reader wrong").isOK == false)
        }
    }

    @Test func eachRoleMayUseItsVerbsAndIsToldWhichRoleTheOthersNeed() throws {
        try Self.withUsers { s in
            let reader = try Self.login(s, "reader"), writer = try Self.login(s, "writer"),
                admin = try Self.login(s, "admin")
            #expect(try reader.request("LS /items").isOK)
            #expect(
                try reader.request("ORDER pesto").final
                    == "ERR NOPERM reader (read) may not use ORDER: it needs the write role")
            #expect(try writer.request("ORDER pesto").isOK)
            #expect(
                try writer.request("BANDS A 10 B").final
                    == "ERR NOPERM writer (write) may not use BANDS: it needs the admin role")
            #expect(try writer.request("STATS").reply.error?.code == .noPerm)
            #expect(try writer.request("BANDS").isOK)
            #expect(try admin.request("BANDS A 10 B").isOK)
            #expect(try admin.request("STATS").isOK)
        }
    }

    @Test func grantsHideAndRefuseWhatIsNotAllowedAndDenyWins() throws {
        try Self.withUsers { s in
            let ci = try Self.login(s, "ci")
            #expect(
                try ci.request("LS /").data.map { $0.components(separatedBy: "/").first ?? "" } == ["items", "orders"])
            #expect(try ci.request("LS /items LIMIT 100").data.contains { $0.hasPrefix("3  ") } == false)
            #expect(try ci.request("SHOW /items/3").final == "ERR NOPERM ci (write) may not read /items/3")
            #expect(
                try ci.request("SHOW /ITEMS/cheap-items/../3").reply.error?.code == .noPerm,
                "checked on the path the model resolves")
            #expect(try ci.request("SET /items/3 name=x").final == "ERR NOPERM ci (write) may not change /items/3")
            #expect(try ci.request("SET /items/2 name=Two").isOK)
            #expect(try ci.request("LS /menu").reply.error?.code == .noPerm)
            #expect(try ci.request("COMPLETE SHOW /").data == ["/items/", "/orders/"])
            #expect(try ci.request("COMPLETE SHOW /items/").data.contains("/items/3") == false)
        }
    }

    @Test func aDeniedMenuEntryCannotBeOrderedByItsBareNameAndIsNeverSuggested() throws {
        try Self.withUsers { s in
            let diner = try Self.login(s, "diner")
            #expect(try diner.request("ORDER /menu/pizza/margherita").reply.error?.code == .noPerm)
            let bare = try diner.request("ORDER margherita")
            #expect(
                bare.reply.error?.code == .notFound && !bare.final.contains("margherita/")
                    && !bare.final.contains("/menu/pizza/margherita"), "\(bare.final)")
            #expect(try diner.request("LS /orders").data.isEmpty, "nothing was ordered")
            #expect(try diner.request("ORDER pepperoni").isOK)
            #expect(try diner.request("SHOW /settings/my-in").final.contains("my-int") == false)
            let names = try diner.request("COMPLETE ORDER ").data
            #expect(names.contains("pepperoni") && !names.contains("margherita"), "\(names)")
            #expect(try diner.request("LS /menu/pizza").data.count == 2)
            #expect(
                try diner.request("LS /menu").data.first?.contains("(2 entries)") == true, "counts leave the entry out")
        }
    }

    @Test func pagesCountsAndCompletionsLeaveOutWhatTheUserMayNotSee() throws {
        try Self.withUsers { s in
            let ci = try Self.login(s, "ci"), browser = try Self.login(s, "browser")
            let page = try ci.request("LS /items LIMIT 1 AFTER 2")
            #expect(
                page.data.contains { $0.hasPrefix("4  ") } && !page.final.contains("AFTER 3"),
                "\(page.data) \(page.final)")
            #expect(try ci.request("LS /").data.first { $0.hasPrefix("items/") }?.hasPrefix("items/  3 items") == true)
            let admin = try Self.login(s, "admin")
            #expect(try admin.request("COMPLETE SELECT /settings/my-int ").data.isEmpty == false)
            #expect(try browser.request("COMPLETE SELECT /settings/my-int ").data.isEmpty)
            let offered = try browser.request("COMPLETE ORDER ").data
            #expect(
                !offered.contains { ["margherita", "pepperoni", "menu"].contains(where: $0.contains) }, "\(offered)")
            #expect(try browser.request("LS /catalog").data.count == 1)
        }
    }

    @Test func aRestrictedUserWatchingTheRootIsSentOnlyWhatItsGrantsAllow() throws {
        try Self.withUsers { s in
            let admin = try Self.login(s, "admin"), ops = try Self.login(s, "ops")
            #expect(try ops.request("WATCH /").final.hasPrefix("OK watching / at rev"))
            #expect(try admin.request("SELECT /settings/my-int #1").isOK)
            #expect(try admin.request("FAV /items/1").isOK)
            #expect(try admin.request("ORDER /menu/pizza/margherita").isOK)
            let first = try ops.waitPush(timeout: 5) { _ in true }
            #expect(first?.contains("/orders/1") == true, "\(first ?? "nothing")")
            #expect(try ops.request("PING").final == "OK PONG")
            #expect(ops.pushes.isEmpty, "\(ops.pushes)")  // nothing of /settings or /items came after
        }
    }

    @Test func aWatcherNeverReceivesAnEventItMayNotReadLiveOrReplayed() throws {
        try Self.withUsers { s in
            let admin = try Self.login(s, "admin"), ci = try Self.login(s, "ci")
            #expect(
                try ci.request("WATCH /settings").final
                    == "ERR NOPERM ci (write) may not watch /settings; watch under /items or /orders")
            #expect(try ci.request("WATCH /items/3").reply.error?.code == .noPerm)
            #expect(try admin.request("SET /items/3 name=Hidden").isOK)
            #expect(try admin.request("SET /items/2 name=Seen").isOK)
            let r = try ci.request("WATCH /items FROM 0")
            #expect(r.final == "OK watching /items at rev 2; replaying 1 event")
            #expect(try ci.waitPush(timeout: 5) { _ in true }?.contains("/items/2") == true)
            #expect(try ci.waitPush(timeout: 5) { _ in true } == "* SYNCED 2")
            #expect(try admin.request("SET /items/3 name=Hidden2").isOK)
            #expect(try admin.request("SET /items/4 name=Seen2").isOK)
            #expect(
                try ci.waitPush(timeout: 5) { _ in true }?.contains("/items/4") == true,
                "the event for /items/3 was not sent before it")
        }
    }

    @Test func twoUsersOnOneLoopNeverSeeEachOthersCachedReplies() throws {
        try Self.withUsers({ $0.ioThreads = 1 }) { s in
            let ci = try Self.login(s, "ci"), ops = try Self.login(s, "ops")
            for _ in 0..<3 {
                #expect(try ci.request("LS /").data.count == 2)
                #expect(try ops.request("LS /").data.count == 1)
            }
        }
    }

    /// A close the server chooses sends what was queued first: every reply the connection
    /// was given arrives whole, and the goodbye after the last of them.
    @Test func aRemovedUsersQueuedRepliesArriveWholeBeforeItsGoodbye() throws {
        try Self.withUsers { s in
            let admin = try Self.login(s, "admin"), ops = try Self.login(s, "ops")
            try admin.line.send(Array(repeating: "ORDER margherita", count: 2_000).joined(separator: "\n"))
            for _ in 0..<2_000 { #expect(try admin.readReply().isOK) }
            // About 12 MB asked and little read: the server runs them until its output waits.
            // The first reply read whole is the sign that it has begun (a PING on another
            // connection is not: that one may be on the other loop, and the removal could then
            // come before ops's requests are read, and find no reply to send first).
            try ops.line.send(Array(repeating: "LS /orders LIMIT 2000", count: 100).joined(separator: "\n"))
            let first = try ops.readReply(timeout: 30)
            #expect(first.data.count == 2_000 && first.final == "OK 2000 of 2000")
            var next = Self.users
            next["ops"] = nil
            #expect(s.reloadUsers(next))
            var rows = 0, replies = 0, last = ""
            while let l = try ops.line.readLine(timeout: 10) {
                last = l
                if l.hasPrefix("- ") {
                    rows += 1
                } else if l.hasPrefix("OK ") {
                    #expect(rows == 2_000 && l == "OK 2000 of 2000", "reply \(replies) had \(rows) rows: \(l)")
                    replies += 1
                    rows = 0
                } else if l.hasPrefix("* BYE") {
                    break
                }
            }
            #expect(last == "* BYE user ops was removed from the users file")
            #expect(rows == 0, "a reply was cut by the goodbye after \(rows) rows")
            #expect(replies > 0)
            // To the end of the stream: nothing follows the goodbye (the server closes).
            var after: [String] = []
            while let l = try? ops.line.readLine(timeout: 10) { after.append(l) }
            #expect(after.isEmpty, "\(after.count) lines after the goodbye: \(after.prefix(3))")
        }
    }

    @Test func aReloadAddsUsersAndClosesTheConnectionsOfRemovedOnes() throws {
        try Self.withUsers { s in
            let ops = try Self.login(s, "ops"), ci = try Self.login(s, "ci")
            var next = Self.users
            next["ops"] = nil
            next["new"] = Self.user("new", .read)
            next["ci"] = Self.regranted("ci", .read, allow: ["/items"])
            #expect(s.reloadUsers(next))
            #expect(try HygieneTests.lastWords(ops.line) == "* BYE user ops was removed from the users file")
            #expect(try ci.request("WHOAMI").final == "OK ci read allow=/items")
            #expect(try ci.request("ORDER pesto").reply.error?.code == .noPerm)
            _ = try Self.login(s, "new")
        }
    }

    @Test func anOrderOfAMenuEntryAUserMayNotSeeIsForItAnOrderNeverMade() throws {
        try Self.withUsers { s in
            let admin = try Self.login(s, "admin"), diner = try Self.login(s, "diner")
            #expect(try admin.request("ORDER /menu/pizza/margherita").isOK)  // order 1, hidden from diner
            #expect(try admin.request("ORDER /menu/pizza/pepperoni").isOK)  // order 2
            let listed = try diner.request("LS /orders")
            #expect(
                listed.final == "OK 1 of 1" && listed.data.count == 1 && listed.data[0].contains("Pepperoni"),
                "\(listed.lines)")
            #expect(!listed.lines.joined().contains("argherita"))
            // Refused in the very words of an order never made (order 3, as near to order 2).
            let never = try diner.request("SHOW /orders/3").final
            #expect(never == "ERR NOTFOUND no /orders/3; did you mean /orders/2?", "\(never)")
            let shown = try diner.request("SHOW /orders/1").final, removed = try diner.request("RM /orders/1").final
            #expect(shown == never.replacingOccurrences(of: "/orders/3", with: "/orders/1"), "\(shown)")
            #expect(removed == never.replacingOccurrences(of: "/orders/3", with: "/orders/1"), "\(removed)")
            #expect(try diner.request("LS /").data.contains { $0.hasPrefix("orders/  1 order") })
            _ = try diner.request("WATCH /orders")
            #expect(try admin.request("ORDER /menu/pizza/margherita").isOK)
            #expect(try admin.request("ORDER /menu/pizza/pepperoni").isOK)
            let pushed = try #require(try diner.waitPush(timeout: 10) { $0.contains("order") })
            #expect(
                pushed.contains("/orders/4") && pushed.contains("Pepperoni"),
                "the hidden entry's order is not pushed; the next one is: \(pushed)")
        }
    }

    @Test func aReloadWithNoUsersIsRefusedAndEverySessionGoesOn() throws {
        try Self.withUsers { s in
            let ci = try Self.login(s, "ci")
            #expect(!s.reloadUsers([:]), "a users file with no users (cut short mid-rewrite) is not taken")
            #expect(try ci.request("WHOAMI").final.hasPrefix("OK ci write"), "the session goes on")
            _ = try Self.login(s, "reader")
        }
    }

    @Test func withoutUsersEverythingIsAllowedAndAuthIsNotNeeded() throws {
        try withServer { s in
            let c = try connect(s)
            #expect(try c.request("BANDS A 10 B").isOK)
            #expect(try c.request("WHOAMI").final == "OK anonymous admin all paths (the server has no users file)")
            #expect(try c.request("AUTH a b").reply.error?.code == .invalid)
        }
    }

    @Test func aReconnectLogsInAgainBeforeItRestoresTheSessionAndWatches() throws {
        try Self.withUsers { s in
            let c = try Self.login(s, "ci")
            var session = SessionTracker()
            for line in ["WATCH /orders", "CD /items"] { session.observe(request: line, reply: try c.request(line)) }
            let writer = try Self.login(s, "writer")
            #expect(try writer.request("ORDER pesto").isOK)
            let credentials = Credentials(name: "ci", secret: "pw-ci")
            #expect("\(credentials)" == "user ci", "printing credentials never shows the secret")
            let resumed = try Reconnector.resume(
                host: "127.0.0.1", port: s.port, credentials: credentials, session: session, after: 0,
                historyID: c.historyID)
            #expect(resumed.refused.isEmpty, "\(resumed.refused)")
            #expect(try resumed.connection.waitPush(timeout: 5) { $0.contains("Pesto") } != nil)
            #expect(try resumed.connection.request("PWD").final == "OK /items")
            let wrong = Credentials(name: "ci", secret: "nope")
            #expect(throws: ClientError.refused("the server refused user ci: ERR WRONGPASS wrong name or secret")) {
                _ = try Reconnector.resume(
                    host: "127.0.0.1", port: s.port, credentials: wrong, session: session, after: 0,
                    historyID: c.historyID)
            }
        }
    }

    @Test func aCachedReplyIsNeverHandedOutAfterAReloadTookTheRightAway() throws {
        try Self.withUsers({ $0.ioThreads = 1 }) { s in
            let ci = try Self.login(s, "ci")
            for _ in 0..<2 { #expect(try ci.request("SHOW /items/2").isOK) }  // the second from the cache
            var next = Self.users
            next["ci"] = Self.regranted("ci", .write, allow: ["/items"], deny: ["/items/2"])
            #expect(s.reloadUsers(next))
            #expect(try eventually { try ci.request("SHOW /items/2").reply.error?.code == .noPerm })
            #expect(try ci.request("SHOW /items/4").isOK)
        }
    }
}
