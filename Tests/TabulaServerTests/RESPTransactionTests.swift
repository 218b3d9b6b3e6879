import Foundation
import Testing
import TabulaClient
import TabulaServer
import TabulaTestSupport

/// MULTI / EXEC / DISCARD over real sockets, on every store: the queued writes apply as one
/// (consecutive revisions, their events together) or none of them does, and EXEC says which
/// command refused and why.
@Suite struct RESPTransactionTests {
    @Test(arguments: ["memory", "sqlite"])
    func aTransactionAppliesItsWritesTogetherAndAnswersEachReply(store: String) throws {
        try withServer(store: try makeStore(store)) { s in
            let watcher = try connect(s)
            #expect(try watcher.request("WATCH /").isOK)
            let r = try RESPTestClient(port: s.port)
            #expect(try r.call("MULTI") == .simple("OK"))
            #expect(try r.call("SELECT", "/settings/my-int", "#3") == .simple("QUEUED"))
            #expect(try r.call("FAV", "/items/1", "on") == .simple("QUEUED"))
            #expect(try r.call("SHOW", "/items/1") == .simple("QUEUED"))
            let exec = try r.call("EXEC")
            guard case .array(let replies) = exec, replies.count == 3 else { Issue.record("EXEC gave \(exec)"); return }
            #expect(replies[0] == .simple("My Int: 32 rev=1"))
            #expect(replies[1] == .simple("favourite rev=2"), "\(replies[1])")
            guard case .array(let shown) = replies[2] else { Issue.record("SHOW in EXEC gave \(replies[2])"); return }
            #expect(shown.contains(.bulk("favorite: yes ★")), "SHOW sees the write before it: \(shown)")
            let first = try #require(try watcher.waitPush(timeout: 5) { $0.hasPrefix("* EVENT") })
            let second = try #require(try watcher.waitPush(timeout: 5) { $0.hasPrefix("* EVENT") })
            #expect(
                first.hasPrefix("* EVENT 1 select /settings/my-int") && second.hasPrefix("* EVENT 2 fav /items/1"),
                "\(first) / \(second)")
        }
    }

    @Test(arguments: ["memory", "sqlite"])
    func aRefusedCommandRefusesTheWholeTransactionAndNothingIsApplied(store: String) throws {
        try withServer(store: try makeStore(store)) { s in
            let r = try RESPTestClient(port: s.port)
            guard case .simple(let changed) = try r.call("SELECT", "/settings/my-string", "#2"),
                changed.hasSuffix("rev=1")
            else { Issue.record("the set-up write"); return }
            #expect(try r.call("MULTI") == .simple("OK"))
            #expect(try r.call("SELECT", "/settings/my-int", "#4") == .simple("QUEUED"))
            #expect(try r.call("SELECT", "/settings/my-string", "#3", "IF", "REV", "0") == .simple("QUEUED"))
            guard case .error(let e) = try r.call("EXEC") else {
                Issue.record("EXEC of a conflicting transaction was taken"); return
            }
            #expect(
                e.hasPrefix("CONFLICT the transaction was not applied: command 2 of 2 (SELECT) was refused: "), "\(e)")
            let c = try connect(s)
            #expect(
                try c.request("SHOW /settings/my-int").data.contains("selected: 16 (#2)"), "command 1 was not applied")
            #expect(try c.request("STATS").data.contains("revision: 1"), "no revision was taken")
            #expect(try r.call("PING") == .simple("PONG"), "out of the transaction")
        }
    }

    @Test func aCommandRefusedWhileQueuedMakesExecDiscardTheTransaction() throws {
        try withServer { s in
            let r = try RESPTestClient(port: s.port)
            #expect(try r.call("MULTI") == .simple("OK"))
            #expect(try r.call("SELECT", "/settings/my-int", "#4") == .simple("QUEUED"))
            guard case .error = try r.call("NOSUCHVERB") else { Issue.record("an unknown verb was queued"); return }
            guard case .error(let ls) = try r.call("LS", "/items") else { Issue.record("LS was queued"); return }
            #expect(ls.contains("cannot be queued"))
            guard case .error(let e) = try r.call("EXEC") else { Issue.record("EXEC ran"); return }
            #expect(e.hasPrefix("EXECABORT Transaction discarded because of previous errors"))
            #expect(try connect(s).request("SHOW /settings/my-int").data.contains("selected: 16 (#2)"))
        }
    }

    @Test func discardDropsTheQueueAndExecOrDiscardAloneIsRefused() throws {
        try withServer { s in
            let r = try RESPTestClient(port: s.port)
            guard case .error(let alone) = try r.call("EXEC") else { Issue.record("EXEC without MULTI ran"); return }
            #expect(alone.contains("EXEC without MULTI"))
            #expect(try r.call("MULTI") == .simple("OK"))
            guard case .error(let nested) = try r.call("MULTI") else { Issue.record("MULTI nested"); return }
            #expect(nested.contains("can not be nested"))
            #expect(try r.call("SELECT", "/settings/my-int", "#4") == .simple("QUEUED"))
            #expect(try r.call("DISCARD") == .simple("OK"))
            #expect(try r.call("MULTI") == .simple("OK"))
            #expect(try r.call("EXEC") == .array([]), "an empty transaction")
            #expect(try connect(s).request("SHOW /settings/my-int").data.contains("selected: 16 (#2)"))
        }
    }
}

@Suite(
    "A transaction on a cluster node",
    .enabled(if: testPostgres != nil, "needs TABULA_TEST_POSTGRES (Scripts/test starts a private PostgreSQL)"))
struct ClusterTransactionTests {
    @Test("EXEC on one node is one commit another node sees whole, and a refused one leaves nothing")
    func aTransactionIsOneCommitOnTheSharedStore() throws {
        try withCluster { nodes, _ in
            let r = try RESPTestClient(port: nodes[0].port)
            #expect(try r.call("MULTI") == .simple("OK"))
            #expect(try r.call("ORDER", "margherita") == .simple("QUEUED"))
            #expect(try r.call("ORDER", "pepperoni") == .simple("QUEUED"))
            guard case .array(let replies) = try r.call("EXEC"), replies.count == 2, case .simple(let last) = replies[1]
            else { Issue.record("EXEC"); return }
            let rev = try #require(revision(of: last))
            let b = try connect(nodes[1])
            #expect(try b.request("SYNC \(rev)").isOK)
            #expect(try b.request("LS /orders").final == "OK 2 of 2")
            #expect(try r.call("MULTI") == .simple("OK"))
            #expect(try r.call("ORDER", "margherita") == .simple("QUEUED"))
            #expect(try r.call("RM", "/items/999") == .simple("QUEUED"))
            guard case .error(let e) = try r.call("EXEC") else {
                Issue.record("a transaction with a missing item was taken"); return
            }
            #expect(e.hasPrefix("NOTFOUND the transaction was not applied: command 2 of 2 (RM)"), "\(e)")
            #expect(try b.request("SYNC \(rev)").isOK)
            #expect(try connect(nodes[0]).request("LS /orders").final == "OK 2 of 2")
        }
    }
}
