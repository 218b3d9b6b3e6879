import Testing
import TabulaModel
import TabulaProtocol
@testable import TabulaStorage
import TabulaTestSupport

/// A change of one order, as the engine would commit it at `rev` (shared by the PostgreSQL
/// suites of this target).
func orderBatch(_ rev: UInt64, id: Int64) -> CommitBatch {
    let m = [
        Mutation("orders", .put([.int(id), .text("/menu/pasta/pesto"), .text("Pesto"), .double(1.5)])),
        Mutation("next_order_id", .counter(id + 1)),
    ]
    let e = Event(rev: rev, kind: "order", path: "/orders/\(id)", summary: "Pesto", value: .null)
    return CommitBatch(mutations: m, events: [e], revision: rev, mutationEnds: [m.count])
}

@Suite(
    "PostgreSQL store",
    .enabled(if: testPostgres != nil, "needs TABULA_TEST_POSTGRES (Scripts/test starts a private PostgreSQL)"))
struct PostgresStoreTests {
    @Test("a transaction's outcome is learned by its id after its connection is gone: committed, aborted")
    func commitOutcomeByTransactionID() throws {
        let db = try freshDatabase()
        for (end, committed) in [("COMMIT", true), ("ROLLBACK", false)] {
            let c = try PGConnection(db, name: "tabula-tests")
            let txid = UInt64(try c.execEach("BEGIN; SELECT txid_current()")[1].int(0, 0))
            try c.exec(end)
            c.close()
            #expect(CommitOutcome.of(txid, conninfo: db) == committed, "\(end)")
        }
    }

    @Test("a new database gets the schema, is seeded once, and every node shares its history id")
    func seedsOnce() throws {
        let db = try freshDatabase()
        let a = try PostgresStore(conninfo: db)
        #expect(try a.load() == nil)
        let seed = SeedData.model(now: 1_700_000_000).snapshot
        try a.seed(seed)
        let b = try PostgresStore(conninfo: db)
        try b.seed(ModelSnapshot(revision: 0, mutations: []))  // too late: a seeded first
        #expect(Model(snapshot: try #require(try b.load())).snapshot == seed)
        #expect(a.historyID == b.historyID)
    }

    @Test("a database holding other tables is refused with what to do")
    func refusesForeignDatabases() throws {
        let db = try freshDatabase()
        try psql(db, "CREATE TABLE invoices(id int)")
        #expect { try PostgresStore(conninfo: db) } throws: { "\($0)".contains("not a Tabula database") }
    }

    @Test("a database of a newer schema is refused")
    func refusesNewerSchemas() throws {
        let db = try freshDatabase()
        _ = try PostgresStore(conninfo: db)
        try psql(db, "UPDATE tabula_meta SET value = 99 WHERE key = 'schema_version'")
        #expect { try PostgresStore(conninfo: db) } throws: { "\($0)".contains("newer than this tabulad") }
    }

    @Test("a write turn locks the head and hands over what the other nodes committed")
    func writeTurnsCatchUp() throws {
        let db = try freshDatabase()
        let a = try PostgresStore(conninfo: db)
        try a.seed(SeedData.model(now: 1).snapshot)
        let b = try PostgresStore(conninfo: db)
        #expect(try a.beginWrite(after: 0).isEmpty)
        try a.commit(orderBatch(1, id: 1))
        let caught = try b.beginWrite(after: 0)
        #expect(caught.map(\.event.rev) == [1])
        #expect(caught.first?.mutations == orderBatch(1, id: 1).mutations)
        try b.commit(orderBatch(2, id: 2))
        #expect(try a.changes(after: 1, limit: 10).map(\.event.path) == ["/orders/2"])
    }

    @Test("a head behind the node, or missed changes trimmed away, is a diverged history")
    func divergedHistories() throws {
        let db = try freshDatabase()
        let a = try PostgresStore(conninfo: db, historyLimit: 1)
        try a.seed(SeedData.model(now: 1).snapshot)
        for r in 1...3 {
            _ = try a.beginWrite(after: UInt64(r - 1))
            try a.commit(orderBatch(UInt64(r), id: Int64(r)))
        }
        #expect(throws: HistoryDiverged.self) { try a.changes(after: 5, limit: 10) }
        #expect(throws: HistoryDiverged.self) { try a.changes(after: 0, limit: 10) }
        #expect(try a.changes(after: 2, limit: 10).map(\.event.rev) == [3])
    }

    /// A history reader of a fresh store with four orders made, one a revision.
    func readerOfFourOrders() throws -> HistoryReader {
        let a = try PostgresStore(conninfo: try freshDatabase())
        try a.seed(SeedData.model(now: 1).snapshot)
        for r in 1...4 {
            _ = try a.beginWrite(after: UInt64(r - 1))
            try a.commit(orderBatch(UInt64(r), id: Int64(r)))
        }
        return try #require(try a.openHistoryReader())
    }

    @Test("replays read the change table under a prefix")
    func historyReader() throws {
        let reader = try readerOfFourOrders()
        #expect(try reader.count(after: 1, through: 4, under: "/orders") == 3)
        #expect(try reader.count(after: 0, through: 4, under: "/orderss") == 0)
        #expect(try reader.events(after: 0, through: 4, under: "/orders/2", limit: 10) { _ in true }.map(\.rev) == [2])
        #expect(try reader.oldestRevision() == 1)
    }

    @Test("replays read without payloads have every summary and no value")
    func historyReaderWithoutPayloads() throws {
        let reader = try readerOfFourOrders()
        for prefix in ["/", "/orders"] {
            let whole = try reader.events(after: 0, through: 4, under: prefix, limit: 10) { _ in true }
            let lean = try reader.events(after: 0, through: 4, under: prefix, limit: 10, payload: false) { _ in true }
            #expect(whole.count == 4 && lean.map(\.rev) == whole.map(\.rev) && lean.map(\.path) == whole.map(\.path))
            #expect(lean.map(\.kind) == whole.map(\.kind) && lean.map(\.summary) == whole.map(\.summary))
            #expect(lean.allSatisfy { $0.value == .null })
        }
    }
}
