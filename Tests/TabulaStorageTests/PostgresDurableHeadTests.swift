import Dispatch
import Foundation
import Testing
import TabulaModel
import TabulaProtocol
@testable import TabulaStorage
import TabulaTestSupport

/// The order committed at `rev`, numbered as its revision.
private func order(_ rev: UInt64) -> CommitBatch { orderBatch(rev, id: Int64(rev)) }

/// One number read from the database.
private func scalar(_ db: String, _ sql: String) throws -> Int64 {
    let c = try PGConnection(db, name: "tabula-tests")
    defer { c.close() }
    return try c.exec(sql).int(0, 0)
}

/// A seeded database and a node's store on it, which has committed `changes` orders (one a
/// turn, revisions 1 on).
private func seededStore(changes: UInt64 = 0) throws -> (db: String, store: PostgresStore) {
    let db = try freshDatabase()
    let store = try PostgresStore(conninfo: db)
    try store.seed(SeedData.model(now: 1).snapshot)
    for r in stride(from: 1, through: changes, by: 1) {
        _ = try store.beginWrite(after: r - 1)
        try store.commit(order(r))
    }
    return (db, store)
}

@Suite(
    "PostgreSQL durable head",
    .enabled(if: testPostgres != nil, "needs TABULA_TEST_POSTGRES (Scripts/test starts a private PostgreSQL)"))
struct PostgresDurableHeadTests {
    @Test(
        "a turn of a node that sees others write frees the head before its flush, and others follow it only once its durable step is done"
    )
    func turnsFreeTheHeadBeforeTheirFlush() throws {
        let (db, a) = try seededStore()
        // Not alone for as long as the test may take on a loaded machine (under the thread
        // sanitizer the next steps once took over the default second, and A flushed alone).
        a.aloneAfter = 3_600
        let b = try PostgresStore(conninfo: db)
        _ = try b.beginWrite(after: 0)
        try b.commit(order(1))
        #expect(try a.beginWrite(after: 0).map(\.event.rev) == [1], "A reads B's change: A is not alone")
        // Another session holds the durable row, so A's durable step waits on it.
        let holder = try PGConnection(db, name: "tabula-tests")
        _ = try holder.execEach("BEGIN; SELECT rev FROM tabula_durable WHERE id = 1 FOR UPDATE")
        let committed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? a.commit(order(2))
            committed.signal()
        }
        let deadline = Date().addingTimeInterval(10)
        while try scalar(db, "SELECT rev FROM tabula_head WHERE id = 1") != 2 && Date() < deadline { usleep(5_000) }
        #expect(try scalar(db, "SELECT rev FROM tabula_head WHERE id = 1") == 2, "A's turn committed")
        // The head's lock is free while A's durable step waits: the next turn may start.
        let next = try PGConnection(db, name: "tabula-tests")
        #expect(
            try next.execEach("BEGIN; SELECT rev FROM tabula_head WHERE id = 1 FOR UPDATE NOWAIT")[1].int(0, 0) == 2)
        try next.exec("ROLLBACK")
        // Not flushed as far as anyone knows: a follower is not shown it yet.
        #expect(try b.changes(after: 1, limit: 10).isEmpty)
        try holder.exec("COMMIT")
        #expect(committed.wait(timeout: .now() + 10) == .success, "A's commit returns once its durable step is done")
        #expect(try b.changes(after: 1, limit: 10).map(\.event.rev) == [2])
        #expect(try scalar(db, PostgresStore.durableHead) == 2)
    }

    @Test(
        "a node that has seen no other write for a second flushes inside its turn: one commit, the head held until it is durable"
    )
    func aNodeAloneFlushesInsideItsTurn() throws {
        let (db, a) = try seededStore()
        #expect(a.alone)
        let holder = try PGConnection(db, name: "tabula-tests")
        _ = try holder.execEach("BEGIN; SELECT rev FROM tabula_durable WHERE id = 1 FOR UPDATE")
        _ = try a.beginWrite(after: 0)
        let committed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? a.commit(order(1))
            committed.signal()
        }
        // A's turn waits on the durable row inside its transaction, holding the head.
        let deadline = Date().addingTimeInterval(10)
        while try scalar(db, "SELECT count(*) FROM pg_locks WHERE NOT granted") == 0 && Date() < deadline {
            usleep(5_000)
        }
        let next = try PGConnection(db, name: "tabula-tests")
        #expect(throws: (any Error).self) {
            try next.execEach("BEGIN; SELECT rev FROM tabula_head WHERE id = 1 FOR UPDATE NOWAIT")
        }
        _ = try? next.exec("ROLLBACK")
        try holder.exec("COMMIT")
        #expect(committed.wait(timeout: .now() + 10) == .success)
        #expect(try scalar(db, "SELECT rev FROM tabula_head WHERE id = 1") == 1)
        #expect(try scalar(db, PostgresStore.durableHead) == 1)
    }

    @Test(
        "the durable step waits for the WAL flush (a transaction that only notified would not: it writes no WAL before its commit record)"
    )
    func theDurableStepWaitsForTheFlush() throws {
        let (db, _) = try seededStore()
        let c = try PGConnection(db, name: "tabula-tests")
        defer { c.close() }
        // Every commit of this session that flushes first sleeps 100 ms: a lower bound only, so a slow
        // machine cannot fail it.
        try c.exec("SET commit_delay = 100000; SET commit_siblings = 0")
        func seconds(_ sql: String) throws -> Double {
            let start = Date()
            _ = try c.exec(sql)
            return Date().timeIntervalSince(start)
        }
        #expect(try seconds(PostgresStore.durable(through: 1)) >= 0.1)
        #expect(try scalar(db, PostgresStore.durableHead) == 1)
    }

    @Test("a write turn that caught other nodes' changes and wrote nothing makes them durable as it ends")
    func abandonedTurnsMakeWhatTheyCaughtDurable() throws {
        let (db, _) = try seededStore(changes: 1)
        let b = try PostgresStore(conninfo: db)
        try psql(db, "UPDATE tabula_durable SET rev = 0")  // as if A's durable step had not run yet
        #expect(try b.beginWrite(after: 0).map(\.event.rev) == [1])
        #expect(b.abandonWrite())
        #expect(try scalar(db, PostgresStore.durableHead) == 1)
    }

    @Test("a follow read returns at most its page of changes, and none past the durable head")
    func followReadsKeepToTheirPageAndTheDurableHead() throws {
        let (db, _) = try seededStore(changes: 4)
        let b = try PostgresStore(conninfo: db)
        #expect(try b.changes(after: 0, limit: 2).map(\.event.rev) == [1, 2])
        #expect(try b.changes(after: 2, limit: Int.max).map(\.event.rev) == [3, 4])
        try psql(db, "UPDATE tabula_durable SET rev = 3")  // as if turn 4's durable step had not run yet
        #expect(try b.changes(after: 1, limit: 10).map(\.event.rev) == [2, 3])
        #expect(try b.changes(after: 3, limit: 10).isEmpty)
    }

    @Test("a node's load makes durable the state it read")
    func loadsAreMadeDurable() throws {
        let (db, _) = try seededStore(changes: 1)
        try psql(db, "UPDATE tabula_durable SET rev = 0")
        #expect(try PostgresStore(conninfo: db).load()?.revision == 1)
        #expect(try scalar(db, PostgresStore.durableHead) == 1)
    }

    @Test("a schema-1 database gets its durable head at the head on a node's start, and is followed from there")
    func schemaOneIsUpgraded() throws {
        let (db, _) = try seededStore(changes: 2)
        try psql(db, "DROP TABLE tabula_durable; UPDATE tabula_meta SET value = 1 WHERE key = 'schema_version'")
        let b = try PostgresStore(conninfo: db)
        #expect(try scalar(db, "SELECT value FROM tabula_meta WHERE key = 'schema_version'") == 2)
        #expect(try scalar(db, PostgresStore.durableHead) == 2)
        #expect(try b.changes(after: 0, limit: 10).map(\.event.rev) == [1, 2])
    }
}
