import CSQLite3
import Glibc
import Testing
import TabulaModel
import TabulaProtocol
import TabulaStorage
import TabulaTestSupport

/// The SQLite history read through its index by list answers as a scan would, for every
/// prefix, range and page size; and a file from before the index is converted once on open
/// and loses nothing.
@Suite struct SQLiteHistoryIndexTests {
    static let paths = [
        "/settings", "/settings/my-int", "/items", "/items/3", "/items/30", "/orders/1", "/catalog/item-1",
        "/catalog/item-1/a", "/menu/pizza", "/",
    ]
    static let prefixes = paths + ["/catalog", "/orders", "/nope", "/settings/my"]

    /// Under the prefix, or a removal of something the prefix lies under (as the server's
    /// `Event.concerns`).
    static func concerns(_ e: Event, _ prefix: String) -> Bool {
        ModelPath.isUnder(e.path, prefix: prefix)
            || (["rm", "clear"].contains(e.kind) && ModelPath.isUnder(prefix, prefix: e.path))
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func theIndexedHistoryAnswersAsAScanWould(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let store = try SQLiteStore(path: tempPath(), syncFull: false)
        var all: [Event] = []
        for rev in 1...400 as ClosedRange<UInt64> {
            let kind = ["add", "set", "rm", "clear", "order"].randomElement(using: &rng)!
            all.append(
                Event(
                    rev: rev, kind: kind, path: Self.paths.randomElement(using: &rng)!, summary: "s\(rev)", value: .null
                ))
            if rev % 50 == 0 {
                try store.commit(CommitBatch(mutations: [], events: Array(all[Int(rev - 50)...]), revision: rev))
            }
        }
        try Self.answersAsAScanWould(
            try #require(try store.openHistoryReader()), all, rounds: 150, rng: &rng, seed: seed)
    }

    /// `rounds` random reads of `reader` (prefix, range, page size, a capped count, a page
    /// cut short) against a scan of `all`, the history it holds. Shared by every store.
    static func answersAsAScanWould(
        _ reader: HistoryReader, _ all: [Event], rounds: Int, rng: inout SplitMix64, seed: UInt64
    ) throws {
        let newest = all.last?.rev ?? 0
        for _ in 0..<rounds {
            let prefix = prefixes.randomElement(using: &rng)!
            let a = UInt64.random(in: 0...newest, using: &rng), b = UInt64.random(in: a...newest, using: &rng)
            let expected = all.filter { $0.rev > a && $0.rev <= b && concerns($0, prefix) }.map(\.rev)
            #expect(
                try reader.count(after: a, through: b, under: prefix) == expected.count,
                "seed \(seed): count \(prefix) (\(a), \(b)]")
            let limit = Int.random(in: 1...40, using: &rng)
            let capped = try reader.count(after: a, through: b, under: prefix, limit: limit)
            #expect(
                capped.count == min(limit, expected.count)
                    && capped.through == (expected.count >= limit ? expected[limit - 1] : b),
                "seed \(seed): count of at most \(limit) of \(prefix) (\(a), \(b)]")
            #expect(
                try reader.events(after: a, through: b, under: prefix, limit: limit) { _ in true }.map(\.rev)
                    == Array(expected.prefix(limit)), "seed \(seed): events \(prefix) (\(a), \(b)]")
            // A page cut short by its bytes stops at an event and leaves nothing out before it.
            var n = 0
            let cut = try reader.events(after: a, through: b, under: prefix, limit: limit) { _ in
                n += 1; return n < 3
            }.map(\.rev)
            #expect(cut == Array(expected.prefix(cut.count)), "seed \(seed): a cut page of \(prefix)")
        }
    }

    @Test func aFileFromBeforeTheIndexIsConvertedOnceAndLosesNothing() throws {
        let (path, _) = try fileWithThreeChanges()
        // Back to the file as the build before the index wrote it: schema 1, no index.
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        #expect(sqlite3_exec(db, "DROP INDEX history_list; PRAGMA user_version=1", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(db)
        let store = try SQLiteStore(path: path)
        let loaded = try #require(try store.load())
        #expect(loaded.revision == 3)
        let reader = try #require(try store.openHistoryReader())
        #expect(
            try reader.events(after: 0, through: 3, under: "/orders", limit: 10) { _ in true }.map(\.rev) == [1, 3])
        #expect(try reader.count(after: 0, through: 3, under: "/settings") == 1)
        store.close()
        var check: OpaquePointer?
        sqlite3_open(path, &check)
        var version: Int32 = 0, indexes: Int32 = 0
        sqlite3_exec(
            check, "PRAGMA user_version",
            { p, _, v, _ in
                p!.assumingMemoryBound(to: Int32.self).pointee = Int32(atoi(v![0]!)); return 0
            }, &version, nil)
        sqlite3_exec(
            check, "SELECT count(*) FROM sqlite_master WHERE name = 'history_list'",
            { p, _, v, _ in
                p!.assumingMemoryBound(to: Int32.self).pointee = Int32(atoi(v![0]!)); return 0
            }, &indexes, nil)
        sqlite3_close(check)
        #expect(version == Int32(SQLiteStore.schemaVersion) && indexes == 1)
    }

    @Test func theRevisionIsTheLastChangesAndTheHistoryIsTrimmedInSteps() throws {
        let path = tempPath()
        do {
            let store = try SQLiteStore(path: path, syncFull: false, historyLimit: 1_000)
            try store.seed(SeedData.model(now: 0).snapshot)
            for rev in 1...2_000 as ClosedRange<UInt64> {
                try store.commit(
                    CommitBatch(
                        mutations: [],
                        events: [Event(rev: rev, kind: "set", path: "/settings/my-int", summary: "", value: .null)],
                        revision: rev))
            }
            let held = 2_000 - Int(try store.oldestRevision()) + 1
            // Trimmed every 15 revisions (a 64th of the bound): never fewer than the bound kept,
            // never 15 more.
            #expect(held >= 1_000 && held < 1_015, "\(held) changes held")
            store.close()
        }
        let reopened = try SQLiteStore(path: path)
        #expect(try reopened.load()?.revision == 2_000)  // the last change's, though no commit wrote a meta row
    }
}
