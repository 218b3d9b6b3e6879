import Testing
import TabulaModel
import TabulaProtocol
@testable import TabulaStorage
import TabulaTestSupport

/// The cluster's change table read through its index by list answers as a scan would, for
/// every prefix, range and page size; the replay's plan reads that index; and a database
/// from before the index gets it when a node starts.
@Suite(
    "PostgreSQL history index",
    .enabled(if: testPostgres != nil, "needs TABULA_TEST_POSTGRES (Scripts/test starts a private PostgreSQL)"))
struct PostgresHistoryIndexTests {
    /// 400 changes at random paths, committed 50 a turn; all of them, in order.
    static func randomHistory(_ store: PostgresStore, seed: UInt64) throws -> [Event] {
        var rng = SplitMix64(seed: seed)
        var all: [Event] = []
        for rev in 1...400 as ClosedRange<UInt64> {
            let kind = ["add", "set", "rm", "clear", "order"].randomElement(using: &rng)!
            all.append(
                Event(
                    rev: rev, kind: kind, path: SQLiteHistoryIndexTests.paths.randomElement(using: &rng)!,
                    summary: "s\(rev)", value: .null))
            if rev % 50 == 0 {
                _ = try store.beginWrite(after: rev - 50)
                try store.commit(CommitBatch(mutations: [], events: Array(all[Int(rev - 50)...]), revision: rev))
            }
        }
        return all
    }

    @Test("the indexed change table answers replays as a scan would", arguments: [1, 2] as [UInt64])
    func theIndexedChangeTableAnswersAsAScanWould(seed: UInt64) throws {
        let store = try PostgresStore(conninfo: try freshDatabase())
        let all = try Self.randomHistory(store, seed: seed)
        var rng = SplitMix64(seed: seed + 100)
        try SQLiteHistoryIndexTests.answersAsAScanWould(
            try #require(try store.openHistoryReader()), all, rounds: 60, rng: &rng, seed: seed)
    }

    @Test("a replay under a list reads the change table through the list's index")
    func aReplayUnderAListReadsTheListsIndex() throws {
        let db = try freshDatabase()
        let store = try PostgresStore(conninfo: db)
        _ = try Self.randomHistory(store, seed: 7)
        let c = try PGConnection(db, name: "tabula-tests")
        defer { c.close() }
        try c.exec("SET enable_seqscan = off")  // a table this small is scanned whatever the indexes
        let sql = PostgresHistoryReader.eventsSQL("/settings")
        let plan = try c.exec("EXPLAIN " + sql, ["0", "400", "/settings", "/settings/", "100", "settings"])
        let text = (0..<plan.count).map { plan.text($0, 0) ?? "" }.joined(separator: "\n")
        #expect(text.contains("tabula_changes_list"), "\(text)")
        #expect(!text.contains("tabula_changes_pkey"), "\(text)")
    }

    @Test("a database from before the index gets it when a node starts, and replays read the same")
    func aDatabaseFromBeforeTheIndexGetsIt() throws {
        let db = try freshDatabase()
        let all = try Self.randomHistory(try PostgresStore(conninfo: db), seed: 3)
        try psql(db, "DROP INDEX tabula_changes_list")
        let store = try PostgresStore(conninfo: db)
        let c = try PGConnection(db, name: "tabula-tests")
        defer { c.close() }
        #expect(try c.exec("SELECT count(*) FROM pg_indexes WHERE indexname = 'tabula_changes_list'").int(0, 0) == 1)
        let expected = all.filter { SQLiteHistoryIndexTests.concerns($0, "/orders") }.map(\.rev)
        #expect(
            try store.openHistoryReader()?.events(after: 0, through: 400, under: "/orders", limit: 1_000) { _ in true }
                .map(\.rev) == expected)
    }
}
