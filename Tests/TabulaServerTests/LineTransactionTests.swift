import Foundation
import Testing
import TabulaClient
import TabulaProtocol
import TabulaServer
import TabulaStorage

/// MULTI … EXEC on the line protocol: the queued writes are applied as one, all or none.
@Suite struct LineTransactionTests {
    @Test func aTransactionsWritesAreOneCommitWithConsecutiveRevisionsTheirEventsBeforeItsReply() throws {
        try withServer(store: try SQLiteStore(path: tempDB(), syncFull: false)) { s in
            let c = try connect(s), watcher = try connect(s)
            _ = try watcher.request("WATCH /settings")
            #expect(try c.request("MULTI").isOK)
            #expect(try c.request("SELECT /settings/my-int #4").final == "OK queued (1)")
            #expect(try c.request("#t SELECT /settings/my-string #3 IF REV 0").final == "OK #t queued (2)")
            let r = try c.request("EXEC")
            #expect(r.data == ["1 SELECT: My Int: 64", "2 SELECT: My String: Blue"])
            #expect(r.final == "OK 2 applied as one rev=2")
            #expect(try watcher.waitPush(timeout: 5) { $0.hasPrefix("* EVENT 1 ") } != nil)
            #expect(try watcher.waitPush(timeout: 5) { $0.hasPrefix("* EVENT 2 ") } != nil)
        }
    }

    @Test func aRefusedCommandRefusesTheWholeTransactionNamingItAndNothingIsApplied() throws {
        try withServer { s in
            let c = try connect(s)
            _ = try c.request("SELECT /settings/my-string #2")
            _ = try c.request("MULTI")
            _ = try c.request("SELECT /settings/my-int #4")
            _ = try c.request("SELECT /settings/my-string #3 IF REV 0")
            let r = try c.request("EXEC")
            #expect(r.reply.error?.code == .conflict)
            #expect(r.final.contains("command 2 of 2 (SELECT) was refused"))
            #expect(
                try c.request("SHOW /settings/my-int").data.contains("selected: 16 (#2)"),
                "the first write was not applied")
            #expect(try c.request("PING").final == "OK PONG", "and the connection is out of the transaction")
        }
    }

    @Test func aRequestRefusedWhileQueuedDiscardsTheTransactionAtExec() throws {
        try withServer { s in
            let c = try connect(s)
            _ = try c.request("MULTI")
            #expect(try c.request("LS /items").reply.error?.code == .invalid, "a list read cannot be queued")
            #expect(try c.request("SELECT /settings/my-int #4").final == "OK queued (1)")
            #expect(try c.request("SELCT nothing").reply.error?.code == .unknown)
            let r = try c.request("EXEC")
            #expect(r.final.hasPrefix("ERR INVALID the transaction was discarded, nothing applied"))
            #expect(try c.request("SHOW /settings/my-int").data.contains("selected: 16 (#2)"))
        }
    }

    @Test func discardDropsTheQueueAndExecOrDiscardOutsideATransactionIsRefused() throws {
        try withServer { s in
            let c = try connect(s)
            #expect(try c.request("EXEC").final == "ERR INVALID EXEC without MULTI")
            #expect(try c.request("DISCARD").final == "ERR INVALID DISCARD without MULTI")
            _ = try c.request("MULTI")
            #expect(try c.request("MULTI").final == "ERR INVALID MULTI calls can not be nested")
            _ = try c.request("ADD /items Lamp 30")
            #expect(try c.request("DISCARD").final == "OK discarded")
            #expect(try c.request("LS /items").data.allSatisfy { !$0.contains("Lamp") })
            _ = try c.request("MULTI")
            #expect(try c.request("EXEC").final == "OK 0 applied as one")
        }
    }

    @Test func aTransactionIsAsManyWritesInOneReplyInJSON() throws {
        try withServer { s in
            let c = try connect(s)
            _ = try c.request("FORMAT json")
            _ = try c.request("MULTI")
            _ = try c.request("ADD /items Lamp 30")
            _ = try c.request("FAV /items/1")
            let r = try c.request("EXEC")
            let rows = r.reply.rows.map(\.json)
            #expect(rows.map { $0["command"]?.stringValue } == ["ADD", "FAV"])
            #expect(rows[0]["data"]?.arrayValue?.first?["name"]?.stringValue == "Lamp")
            #expect(r.reply.rev == 2 && rows[1]["rev"]?.intValue == 2)
        }
    }

    /// Random transactions of writes (and SHOWs) on one server, checked against the same
    /// requests one at a time on a fresh server that first replays the transactions taken so
    /// far: where every request is taken alone, EXEC takes them all and its rows are their
    /// replies; where one is refused, EXEC is refused. After each, the lists read as the
    /// one-at-a-time server's do after the group (taken) or before it (refused). A failure
    /// names its seed.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func randomTransactionsEqualTheirRequestsOneAtATimeOrNothing(seed: UInt64) throws {
        var rng = SplitMix(seed: seed &+ 9100)
        let writes = GeneratedLines.all.filter { line in
            guard case .success(let r)? = RequestParser.parse(Array(line.utf8)) else { return false }
            return r.traits.access == .write || r.command.verb == .show
        }
        var taken = 0, refused = 0
        try withServer { tx in
            let c = try connect(tx)
            var applied: [String] = []
            for round in 0..<10 {
                let group = (0..<(1 + Int(rng.next() % 4))).map { _ in writes[Int(rng.next() % UInt64(writes.count))] }
                _ = try c.request("MULTI")
                for line in group { _ = try c.request(line) }
                let exec = try c.request("EXEC")
                let alone = try Self.oneAtATime(applied, then: group)
                let context = "seed \(seed), round \(round), \(group) after \(applied)"
                if alone.replies.allSatisfy(\.isOK) {
                    let want = zip(group, alone.replies).enumerated().map { k, pair in
                        GeneratedLines.masked("\(k + 1) \(pair.0.split(separator: " ")[0]): \(pair.1.reply.message)")
                    }
                    #expect(exec.reply.rows.map { GeneratedLines.masked($0.text) } == want, "\(context): \(exec.lines)")
                    #expect(try Self.lists(c) == alone.after, "\(context)")
                    applied += group
                    taken += 1
                } else {
                    #expect(!exec.isOK, "\(context): EXEC \(exec.final), though alone \(alone.replies.map(\.final))")
                    #expect(try Self.lists(c) == alone.before, "\(context)")
                    refused += 1
                }
            }
        }
        #expect(taken > 0 && refused > 0, "seed \(seed) drew \(taken) taken and \(refused) refused transactions")
    }

    /// `applied`, then `group`, sent one at a time to a fresh server: the group's replies and
    /// the lists before and after it.
    static func oneAtATime(_ applied: [String], then group: [String]) throws -> (
        replies: [ServerReply], before: [String], after: [String]
    ) {
        var out: (replies: [ServerReply], before: [String], after: [String]) = ([], [], [])
        try withServer { s in
            let c = try connect(s)
            for line in applied { _ = try c.request(line) }
            out.before = try lists(c)
            out.replies = try group.map { try c.request($0) }
            out.after = try lists(c)
        }
        return out
    }

    /// Every list as LS shows it, times and serials masked.
    static func lists(_ c: TabulaConnection) throws -> [String] {
        try [
            "/settings/my-int", "/settings/my-string", "/items", "/catalog", "/catalog/item-3", "/menu/pizza",
            "/menu/pasta", "/orders",
        ].flatMap { p in
            try c.request("LS \(p) LIMIT 1000").lines.map(GeneratedLines.masked)
        }
    }
}
