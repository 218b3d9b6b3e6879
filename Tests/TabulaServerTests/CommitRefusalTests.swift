import Foundation
import Testing
import TabulaClient
import TabulaStorage

@testable import TabulaServer

/// What a commit that the store refuses, or that hangs, costs the others: a refusal reaches
/// only the connection whose changes the store cannot take, is undone without reading the
/// store back, and puts off no later write; reads go on from the committed state meanwhile.
@Suite struct CommitRefusalTests {
    /// Waits (up to 10 s) until `check` holds; each look is a read of the server's own state.
    static func until(_ check: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !check() && Date() < deadline { usleep(1_000) }
        return check()
    }

    @Test func oneWritersRefusedChangeRefusesNoneOfTheWritesCommittedWithIt() throws {
        let store = BrokenStore(try SQLiteStore(path: tempDB()))
        try withServer(store: store) { s in
            let first = try connect(s), big = try connect(s), small = try connect(s)
            let itemsBefore = try stat(small, "items")
            store.refuseTextsOver.store(1_000, ordering: .releasing)
            store.holdCommits.store(true, ordering: .releasing)
            // A commit under way holds the engine: the next two writes wait for one turn together.
            try first.line.send("SELECT /settings/my-int #1")
            #expect(Self.until { store.commitsHeld.load(ordering: .acquiring) == 1 })
            try big.line.send("ADD /items \(String(repeating: "x", count: 2_000)) 5")
            try small.line.send("SELECT /settings/my-int #3")
            #expect(Self.until { s.engine.inbox.count == 2 }, "both writes reached the engine while it was held")
            store.holdCommits.store(false, ordering: .releasing)
            #expect(try first.readReply().isOK)
            let refused = try big.readReply(), taken = try small.readReply()
            #expect(refused.reply.error?.code == .storage, "\(refused.final)")
            #expect(taken.isOK, "a small write was refused with another's oversized one: \(taken.final)")
            let items = try stat(small, "items")
            #expect(items == itemsBefore, "the oversized item is not kept: \(items) items, \(itemsBefore) before")
        }
    }

    @Test func aWriterRefusedLatelyRunsInATurnAfterTheOthersSoItsRefusalCostsNoneOfThem() throws {
        let store = BrokenStore(try SQLiteStore(path: tempDB()))
        try withServer(store: store) { s in
            let first = try connect(s), big = try connect(s), small = try connect(s)
            store.refuseTextsOver.store(1_000, ordering: .releasing)
            let long = String(repeating: "x", count: 2_000)
            #expect(try big.request("ADD /items \(long) 5").reply.error?.code == .storage, "refused, alone")
            store.holdCommits.store(true, ordering: .releasing)
            try first.line.send("SELECT /settings/my-int #1")
            #expect(Self.until { store.commitsHeld.load(ordering: .acquiring) == 1 })
            try big.line.send("ADD /items \(long)2 5")
            try small.line.send("SELECT /settings/my-int #3")
            #expect(Self.until { s.engine.inbox.count == 2 }, "both writes reached the engine while it was held")
            let before = store.commits.load(ordering: .acquiring)
            store.holdCommits.store(false, ordering: .releasing)
            #expect(try first.readReply().isOK)
            #expect(try small.readReply().isOK)
            #expect(try big.readReply().reply.error?.code == .storage)
            // small's turn, then big's alone: no commit of both refused and tried again in halves.
            #expect(store.commits.load(ordering: .acquiring) - before == 2)
        }
    }

    @Test func aWriterRefusedLatelyStillRunsATransactionOnceTheStoreTakesIt() throws {
        let store = BrokenStore(try SQLiteStore(path: tempDB()))
        try withServer(store: store) { s in
            let c = try connect(s)
            store.refuseTextsOver.store(1_000, ordering: .releasing)
            #expect(try c.request("ADD /items \(String(repeating: "x", count: 2_000)) 5").reply.error?.code == .storage)
            store.refuseTextsOver.store(0, ordering: .releasing)
            #expect(try c.request("MULTI").isOK)
            #expect(try c.request("ORDER pesto").isOK)
            let done = try c.request("EXEC")
            #expect(done.isOK, "\(done.final)")
        }
    }

    @Test func refusedWritersAreRememberedForAWhileAndOrderedLast() {
        var w = RefusedWriters()
        let a = ConnectionID(loop: 0, serial: 1), b = ConnectionID(loop: 0, serial: 2)
        let batch: [EngineInput] = [.group(a, [], session: Session()), .group(b, [], session: Session()), .follow]
        #expect(w.ordered(batch, at: 0).later.isEmpty)
        w.note(RefusedWriters.key(a, Session()), at: 10)
        let (first, later) = w.ordered(batch, at: 11)
        #expect(first.count == 2 && later.count == 1)
        if case .group(let c, _, _)? = later.first { #expect(c == a) }
        #expect(w.ordered(batch, at: 10 + RefusedWriters.seconds).later.isEmpty, "forgotten after a while")
        #expect(w.ordered(batch + [.shutdown], at: 11).later.isEmpty, "a stop keeps the order")
    }

    @Test func readsAreAnsweredFromTheCommittedStateWhileACommitHangs() throws {
        let store = BrokenStore(try SQLiteStore(path: tempDB()))
        try withServer(store: store) { s in
            let writer = try connect(s)
            let reader = try TabulaConnection(host: "127.0.0.1", port: s.port, timeout: 5)
            let before = try reader.request("SHOW /settings/my-int").data
            store.holdCommits.store(true, ordering: .releasing)
            defer { store.holdCommits.store(false, ordering: .releasing) }
            try writer.line.send("SELECT /settings/my-int #3")
            #expect(Self.until { store.commitsHeld.load(ordering: .acquiring) == 1 })
            let during = try reader.request("SHOW /settings/my-int")
            #expect(store.commitsHeld.load(ordering: .acquiring) == 1, "answered while the commit still hung")
            #expect(during.isOK && during.data == before, "a read showed a change not yet committed: \(during.data)")
            store.holdCommits.store(false, ordering: .releasing)
            #expect(try writer.readReply().isOK)
            #expect(
                try reader.request("SHOW /settings/my-int").data != before, "once its OK is sent, the change is read")
        }
    }

    @Test func aSyncIsAnsweredAtItsTimeoutWhileACommitHangs() throws {
        let store = BrokenStore(try SQLiteStore(path: tempDB()))
        try withServer(store: store) { s in
            let writer = try connect(s), waiter = try connect(s)
            store.holdCommits.store(true, ordering: .releasing)
            defer { store.holdCommits.store(false, ordering: .releasing) }
            try writer.line.send("SELECT /settings/my-int #3")
            #expect(Self.until { store.commitsHeld.load(ordering: .acquiring) == 1 })
            let start = Date()
            let r = try waiter.request("SYNC 1000000 TIMEOUT 200")
            let ms = Date().timeIntervalSince(start) * 1000
            #expect(store.commitsHeld.load(ordering: .acquiring) == 1, "answered while the commit still hung")
            #expect(r.reply.error?.code == .timeout && ms < 300, "\(r.final) after \(Int(ms)) ms")
            #expect(try waiter.request("SHOW /settings/my-int").isOK, "the requests after it run")
        }
    }

    @Test func aRefusedChangeIsUndoneWithoutReadingTheStoreBack() throws {
        let store = BrokenStore(try SQLiteStore(path: tempDB()))
        try withServer(store: store) { s in
            let c = try connect(s), r = try connect(s)
            #expect(try c.request("ADD /items Kept 5").isOK)
            let loads = store.loads.load(ordering: .relaxed)
            store.failCommits.store(true, ordering: .releasing)
            store.failLoads.store(true, ordering: .releasing)
            #expect(try c.request("ADD /items Refused 6").reply.error?.code == .storage)
            let read = try r.request("LS /items")
            #expect(read.isOK, "reads go on from the state as committed: \(read.final)")
            #expect(
                read.data.contains { $0.contains("Kept") } && !read.data.contains { $0.contains("Refused") },
                "\(read.data)")
            #expect(store.loads.load(ordering: .relaxed) == loads, "the store was read back")
        }
    }

    @Test func theFirstWriteAfterARefusedCommitIsTriedAtOnce() throws {
        let store = BrokenStore(try SQLiteStore(path: tempDB()))
        try withServer(store: store) { s in
            let c = try connect(s)
            store.failCommits.store(true, ordering: .releasing)
            #expect(try c.request("ADD /items Refused 6").reply.error?.code == .storage)
            store.failCommits.store(false, ordering: .releasing)
            let next = try c.request("ADD /items Taken 7")
            #expect(next.isOK, "a write after a refused commit was refused without being tried: \(next.final)")
        }
    }
}
