import CSQLite3
import Synchronization
import Foundation
import Testing
import TabulaModel
import TabulaProtocol
import TabulaStorage
import TabulaTestSupport

func tempPath(_ name: String = "t.sqlite") -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tabula-test-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent(name).path
}

/// Applies request lines to a model and commits each change, as the engine does.
func applyAndCommit(_ lines: [String], model: inout Model, store: SQLiteStore) throws {
    var viewer = Viewer()
    var rng = SplitMix64(seed: 9)
    for l in lines {
        guard case .success(let r)? = RequestParser.parse(Array(l.utf8)) else {
            Issue.record("bad line \(l)"); continue
        }
        let o = model.apply(r.command, viewer: &viewer, now: 1_700_000_000, rng: &rng)
        guard let e = o.event else {
            Issue.record("no change from \(l): \(o.reply.error?.description ?? "")"); continue
        }
        try store.commit(CommitBatch(mutations: o.mutations, events: [e], revision: model.revision))
    }
}

/// A closed store file holding the seed and three changes (two orders, revisions 1 and 3,
/// and a selection), and the model it holds.
func fileWithThreeChanges() throws -> (path: String, model: Model) {
    let path = tempPath()
    var model = SeedData.model(now: 0)
    let store = try SQLiteStore(path: path)
    try store.seed(model.snapshot)
    try applyAndCommit(["ORDER pesto", "SELECT /settings/my-string Red", "ORDER gelato"], model: &model, store: store)
    store.close()
    return (path, model)
}

/// Runs SQL on a file through its own SQLite connection, as another program would. (In
/// process: a spawned shell would share, between fork and exec, the open files of tests
/// running in parallel — including a store's flock — and make them flaky.)
func sqlite3(_ path: String, _ sql: String) throws {
    var db: OpaquePointer?
    guard sqlite3_open(path, &db) == SQLITE_OK else { throw StorageError("cannot open \(path)") }
    defer { sqlite3_close(db) }
    guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw StorageError("cannot run \(sql)") }
}

func listing(_ m: Model) -> [String] {
    var model = m
    var viewer = Viewer()
    var rng = SplitMix64(seed: 1)
    var out: [String] = []
    for p in [
        "/settings", "/settings/my-int", "/catalog", "/catalog/item-1", "/items", "/menu", "/menu/pizza", "/orders",
    ] {
        out += model.apply(.ls(path: p, limit: 1000, after: nil), viewer: &viewer, now: 0, rng: &rng).reply.rows.map(
            \.text)
    }
    return out
}

@Suite struct SQLiteStoreTests {
    @Test func aNewFileLoadsAsEmptySoTheServerSeedsIt() throws {
        let store = try SQLiteStore(path: tempPath())
        #expect(try store.load() == nil)
    }

    @Test func stateAndRevisionComeBackExactlyAfterReopening() throws {
        let path = tempPath()
        var model = SeedData.model(now: 1_700_000_000)
        do {
            let store = try SQLiteStore(path: path)
            try store.seed(model.snapshot)
            try applyAndCommit(
                [
                    "SELECT /settings/my-int 64", #"ADD /items "Red Chair" 70"#, "MV /items/5 1", "FAV /items/5",
                    "BANDS Low 30 High",
                    "ADD /catalog/item-1 Deep tabs A B", "RM /catalog/item-2", "ADD /menu Drinks",
                    "ADD /menu/drinks Cola", "ORDER cola", "ORDER pesto", "RM /orders/1",
                    #"ADD /settings "Mode" bool on off"#, "RM /items/2",
                ], model: &model, store: store)
        }
        let reopened = try SQLiteStore(path: path)
        let snap = try #require(try reopened.load())
        let back = Model(snapshot: snap)
        #expect(back.revision == model.revision)
        #expect(listing(back) == listing(model))
        #expect(back.snapshot == model.snapshot)
        #expect(snap.mutations.contains(Mutation("next_item_id", .counter(6))))
    }

    @Test func removedIdsAreNeverReusedAfterARestart() throws {
        let path = tempPath()
        var model = SeedData.model(now: 0)
        do {
            let store = try SQLiteStore(path: path)
            try store.seed(model.snapshot)
            try applyAndCommit(
                ["ADD /items x 1", "RM /items/5", "ORDER pesto", "RM /orders"], model: &model, store: store)
        }
        var back = Model(snapshot: try #require(try SQLiteStore(path: path).load()))
        var v = Viewer()
        var rng = SplitMix64(seed: 2)
        #expect(
            back.apply(.add(path: "/items", args: ["y", "2"]), viewer: &v, now: 0, rng: &rng).event?.path == "/items/6")
        #expect(back.apply(.order(path: "pesto"), viewer: &v, now: 0, rng: &rng).event?.path == "/orders/2")
    }

    @Test func theHistoryReadWithoutPayloadsHasEverySummaryAndNoValue() throws {
        let path = tempPath()
        var model = SeedData.model(now: 0)
        let store = try SQLiteStore(path: path)
        try store.seed(model.snapshot)
        try applyAndCommit(
            ["ORDER pesto", "FAV /items/2", "SELECT /settings/my-string Red", "ADD /items Lamp 30"], model: &model,
            store: store)
        let reader = try #require(try store.openHistoryReader())
        for prefix in ["/", "/items"] {
            let whole = try reader.events(after: 0, through: 10, under: prefix, limit: 10) { _ in true }
            let lean = try reader.events(after: 0, through: 10, under: prefix, limit: 10, payload: false) { _ in true }
            #expect(lean.map(\.rev) == whole.map(\.rev) && lean.map(\.kind) == whole.map(\.kind))
            #expect(lean.map(\.path) == whole.map(\.path) && lean.map(\.summary) == whole.map(\.summary))
            #expect(whole.allSatisfy { $0.value != .null } && lean.allSatisfy { $0.value == .null && $0.at == nil })
        }
    }

    @Test func theHistoryReplaysEventsAfterARevision() throws {
        let path = tempPath()
        var model = SeedData.model(now: 0)
        let store = try SQLiteStore(path: path)
        try store.seed(model.snapshot)
        try applyAndCommit(
            ["ORDER pesto", "ORDER gelato", "SELECT /settings/my-string Red"], model: &model, store: store)
        let reader = try #require(try store.openHistoryReader())
        let events = try reader.events(after: 1, through: 10, under: "/", limit: 10) { _ in true }
        #expect(events.map(\.rev) == [2, 3])
        #expect(
            try reader.events(after: 0, through: 10, under: "/orders", limit: 10) { _ in true }.map(\.rev) == [1, 2])
        #expect(try reader.count(after: 0, through: 3, under: "/settings") == 1)
        #expect(try reader.count(after: 0, through: 3, under: "/settings/my") == 0)
        #expect(events.last?.value["value"] == .string("Red"))
        #expect(try store.oldestRevision() == 1)
    }

    @Test func historyRetentionIsBounded() throws {
        let path = tempPath()
        var model = SeedData.model(now: 0)
        let store = try SQLiteStore(path: path, syncFull: false, historyLimit: 10)
        try store.seed(model.snapshot)
        try applyAndCommit(Array(repeating: "ORDER pesto", count: 25), model: &model, store: store)
        #expect(try store.oldestRevision() == 16)
        #expect(try store.openHistoryReader()?.count(after: 0, through: 100, under: "/") == 10)
    }

    @Test func theOldestRevisionFollowsEveryTrimThoughItIsReadOnce() throws {
        let path = tempPath()
        var model = SeedData.model(now: 0)
        let store = try SQLiteStore(path: path, syncFull: false, historyLimit: 10)
        try store.seed(model.snapshot)
        #expect(try store.oldestRevision() == 0)
        let reader = try #require(try store.openHistoryReader())
        for _ in 0..<40 {
            try applyAndCommit(["ORDER pesto"], model: &model, store: store)
            #expect(try store.oldestRevision() == reader.oldestRevision(), "at revision \(model.revision)")
        }
        #expect(try store.oldestRevision() > 20)
    }

    @Test func aFileThatIsNotSQLiteIsRefusedUntouched() throws {
        let path = tempPath()
        let junk = Data("hello, this is my diary\n".utf8)
        try junk.write(to: URL(fileURLWithPath: path))
        #expect { _ = try SQLiteStore(path: path) } throws: { "\($0)".contains("is not a Tabula database") }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == junk)
    }

    @Test func anotherApplicationsSQLiteFileIsRefused() throws {
        let path = tempPath()
        try sqlite3(path, "CREATE TABLE notes(x); INSERT INTO notes VALUES (1);")
        #expect { _ = try SQLiteStore(path: path) } throws: {
            "\($0)".contains("is an SQLite database but not a Tabula one")
        }
    }

    @Test func aNewerSchemaVersionIsRefused() throws {
        let path = tempPath()
        _ = try SQLiteStore(path: path)
        try sqlite3(path, "PRAGMA user_version=99;")
        #expect { _ = try SQLiteStore(path: path) } throws: {
            "\($0)".contains(
                "has schema version 99, newer than this tabulad understands (\(SQLiteStore.schemaVersion))")
        }
    }

    @Test func aFileAnotherServerHasOpenIsRefused() throws {
        let path = tempPath()
        let first = try SQLiteStore(path: path)
        #expect { _ = try SQLiteStore(path: path) } throws: { "\($0)".contains("is in use by another tabulad") }
        _ = first
    }

    @Test func anUnwritablePathIsRefusedWithAClearMessage() throws {
        #expect { _ = try SQLiteStore(path: "/nonexistent-dir/t.sqlite") } throws: {
            "\($0)".contains("its directory does not exist")
        }
        #expect { _ = try SQLiteStore(path: "/proc/tabula.sqlite") } throws: {
            "\($0)".contains("cannot open /proc/tabula.sqlite")
        }
    }

    @Test func aFullDiskFailsTheWholeBatchAndKeepsThePreviousState() throws {
        let path = tempPath()
        var model = SeedData.model(now: 0)
        let store = try SQLiteStore(path: path, maxBytes: 64 * 1024)
        try store.seed(model.snapshot)
        var failed = false
        var lastGood: UInt64 = 0
        for i in 0..<2000 {
            let big = String(repeating: "x", count: 400)
            do {
                try applyAndCommit(["ADD /items \(big)\(i) 5"], model: &model, store: store)
                lastGood = model.revision
            } catch {
                #expect("\(error)".contains("disk full"))
                failed = true
                break
            }
        }
        #expect(failed)
        let back = try #require(try store.load())
        #expect(back.revision == lastGood)
    }

    @Test func textComesBackByteForByteNulAndUnicodeIncluded() throws {
        let path = tempPath()
        let names = ["", "a\u{0}b", "O'Brien \"x\" \\ é 😀", String(repeating: "é", count: 3_000)]
        do {
            let store = try SQLiteStore(path: path)
            try store.seed(SeedData.model(now: 0).snapshot)
            for (i, name) in names.enumerated() {
                let put = Mutation(
                    "orders", .put([.int(Int64(90 + i)), .text("/menu/" + name), .text(name), .double(1)]))
                try store.commit(
                    CommitBatch(
                        mutations: [put],
                        events: [
                            Event(
                                rev: UInt64(i + 1), kind: "order", path: "/orders/\(90 + i)", summary: name,
                                value: .string(name))
                        ], revision: UInt64(i + 1)))
            }
        }
        let store = try SQLiteStore(path: path)
        let rows = try #require(try store.load()).mutations.compactMap { m -> [StoredValue]? in
            guard m.table == "orders", case .put(let row) = m.change else { return nil }
            return row.values
        }
        #expect(rows.map { $0[2] } == names.map { .text($0) })
        let events = try #require(try store.openHistoryReader()).events(after: 0, through: 10, under: "/", limit: 10) {
            _ in true
        }
        #expect(events.map(\.summary) == names)
        #expect(events.map(\.value) == names.map { .string($0) })
    }
}

/// A store that refuses its file must close what it opened exactly once: a second close of
/// a descriptor number closes whatever the process opened with that number meanwhile —
/// another store's database — and that store then fails with an I/O error.
@Suite struct SQLiteStoreRefusalTests {
    @Test func refusingAFileNeverClosesAnotherStoresDescriptors() throws {
        let newer = tempPath()
        _ = try SQLiteStore(path: newer)
        try sqlite3(newer, "PRAGMA user_version=99;")
        let failures = Atomic<Int>(0)
        let done = Atomic<Bool>(false)
        let refuser = Thread {
            while !done.load(ordering: .acquiring) {
                _ = try? SQLiteStore(path: newer)  // refused: newer schema
            }
        }
        refuser.start()
        defer { done.store(true, ordering: .releasing) }
        var model = SeedData.model(now: 0)
        for round in 0..<40 {
            do {
                let store = try SQLiteStore(path: tempPath(), syncFull: false)
                try store.seed(model.snapshot)
                try applyAndCommit(["ORDER pesto", "FAV /items/1"], model: &model, store: store)
                _ = try store.load()
            } catch {
                failures.wrappingAdd(1, ordering: .relaxed)
                Issue.record("round \(round): \(error)")
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
    }
}
