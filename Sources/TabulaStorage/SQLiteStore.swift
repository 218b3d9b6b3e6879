import CSQLite3
import Foundation
import Glibc
import TabulaModel
import TabulaProtocol

/// The embedded default store: one SQLite file in WAL mode, a table per store plus the
/// change history, readable with the `sqlite3` shell.
///
/// One `tabulad` owns the file: it holds an exclusive `flock` on it for its lifetime, so a
/// second server refuses to start instead of sharing it.
public final class SQLiteStore: StateStore, @unchecked Sendable {
    /// The schema version this build writes; older files are migrated, newer ones refused.
    public static let schemaVersion = 3
    /// `PRAGMA application_id`: "TABL".
    public static let applicationID: Int32 = 0x5441_424C

    let db: SQLiteDatabase
    /// `path` with symbolic links resolved at open: the name the file must keep.
    let realPath: String
    let tables = SQLiteTables()
    /// Made when the file is first used and kept in it.
    public private(set) var historyID = ""
    let path: String
    let historyLimit: Int
    private let lockFD: Int32
    /// The history's oldest revision, once known and until a trim (see `oldestRevision`).
    private var oldestKnown: UInt64?

    /// Opens (or creates) the store at `path`.
    /// - Parameters:
    ///   - syncFull: fsync on every commit (`--sync full`), or only at WAL checkpoints.
    ///   - historyLimit: how many of the newest changes the history keeps.
    ///   - maxBytes: a cap on the file size; writes past it fail as if the disk were full.
    public init(path: String, syncFull: Bool = true, historyLimit: Int = 1_000_000, maxBytes: Int? = nil) throws {
        self.path = path
        self.realPath = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        self.historyLimit = max(1, historyLimit)
        try SQLiteStore.checkHeader(path)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let e = errno
            throw StorageError(
                "cannot open \(path): \(String(cString: strerror(e)))\(e == EACCES || e == EROFS ? "; the path is not writable, pick another --data path" : e == ENOENT ? "; its directory does not exist" : "")"
            )
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            Glibc.close(fd)
            throw StorageError(
                "\(path) is in use by another tabulad; stop that one, or give this one another --data path")
        }
        lockFD = fd
        do {
            db = try SQLiteDatabase(path: path)
            try prepareSchema()
            try tables.createMissing(in: db)
            historyID = try loadHistoryID()
            try db.exec("PRAGMA journal_mode=WAL")
            try db.exec("PRAGMA synchronous=\(syncFull ? "FULL" : "NORMAL")")
            if let maxBytes {
                let pages = max(8, maxBytes / 4096)
                try db.exec("PRAGMA max_page_count=\(pages)")
            }
        } catch {
            // Closed here, once: marked closed so that deinit (which runs when a throwing init
            // had already set every property) does not close the number again — by then it
            // may be another store's database.
            Glibc.close(fd)
            isClosed = true
            throw error
        }
    }

    private var isClosed = false

    deinit { close() }

    /// Closes the database and releases the lock, so another server may open the file.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        db.close()
        Glibc.close(lockFD)
    }

    /// The file path.
    public var describe: String { path }
    /// "sqlite".
    public var kind: String { "sqlite" }
    /// Every commit is on disk before its reply.
    public var isDurable: Bool { true }

    /// Refuses files that are not SQLite before SQLite touches them.
    static func checkHeader(_ path: String) throws {
        guard let h = FileHandle(forReadingAtPath: path) else { return }
        defer { try? h.close() }
        let head = (try? h.read(upToCount: 16)) ?? Data()
        if head.isEmpty { return }
        guard head == Data("SQLite format 3\0".utf8) else {
            throw StorageError(
                "\(path) is not a Tabula database (it is not an SQLite file); move it away or pick another --data path")
        }
    }

    private func prepareSchema() throws {
        let appID = try db.scalarInt("PRAGMA application_id") ?? 0
        let version = Int(try db.scalarInt("PRAGMA user_version") ?? 0)
        let tables = try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type='table'") ?? 0
        if tables > 0 && appID != Int64(SQLiteStore.applicationID) {
            throw StorageError("\(path) is an SQLite database but not a Tabula one; pick another --data path")
        }
        if version > SQLiteStore.schemaVersion {
            throw StorageError(
                "\(path) has schema version \(version), newer than this tabulad understands (\(SQLiteStore.schemaVersion)); run a newer tabulad"
            )
        }
        if version == SQLiteStore.schemaVersion { return }
        try db.exec("BEGIN IMMEDIATE")
        do {
            for v in (version + 1)...SQLiteStore.schemaVersion {
                try db.exec(SQLiteStore.migrations[v - 1])
            }
            try db.exec("PRAGMA application_id=\(SQLiteStore.applicationID)")
            try db.exec("PRAGMA user_version=\(SQLiteStore.schemaVersion)")
            try db.exec("COMMIT")
        } catch {
            try? db.exec("ROLLBACK")
            throw error
        }
    }

    /// Migration `i` brings the schema from version `i` to `i + 1`.
    static let migrations = [
        """
        CREATE TABLE meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL);
        CREATE TABLE settings(slug TEXT PRIMARY KEY, position INTEGER NOT NULL, title TEXT NOT NULL,
            type TEXT NOT NULL, options TEXT NOT NULL, selected INTEGER NOT NULL);
        CREATE TABLE catalog(id INTEGER PRIMARY KEY, parent INTEGER NOT NULL, position INTEGER NOT NULL,
            slug TEXT NOT NULL, title TEXT NOT NULL, view TEXT NOT NULL, detail TEXT NOT NULL);
        CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL, value INTEGER NOT NULL, serial TEXT NOT NULL,
            created REAL NOT NULL, favorite INTEGER NOT NULL, ord REAL NOT NULL);
        CREATE TABLE bands(position INTEGER PRIMARY KEY, title TEXT NOT NULL, lower INTEGER NOT NULL);
        CREATE TABLE menu_sections(position INTEGER PRIMARY KEY, slug TEXT NOT NULL, title TEXT NOT NULL);
        CREATE TABLE menu_entries(section INTEGER NOT NULL, position INTEGER NOT NULL, slug TEXT NOT NULL,
            title TEXT NOT NULL, PRIMARY KEY(section, position));
        CREATE TABLE orders(id INTEGER PRIMARY KEY, entry TEXT NOT NULL, title TEXT NOT NULL, created REAL NOT NULL);
        CREATE TABLE history(rev INTEGER PRIMARY KEY, time REAL NOT NULL, path TEXT NOT NULL, kind TEXT NOT NULL,
            summary TEXT NOT NULL, payload TEXT NOT NULL);
        """,
        // 2: the history by top-level list, so that a replay of one list reads only its own
        // events (see `SQLiteHistoryReader.list`).
        """
        CREATE INDEX history_list ON history(substr(path, 2, instr(substr(path, 2) || '/', '/') - 1), rev);
        """,
        // 3: the tables keyed by text or by two columns WITHOUT ROWID: a row lives in its
        // key's b-tree alone, so writing it dirties one page, not the table's and its key
        // index's (a SELECT's commit: 3 pages, was 4; an ORDER's counter likewise).
        """
        CREATE TABLE meta_3(key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
        INSERT INTO meta_3 SELECT key, value FROM meta;
        DROP TABLE meta;
        ALTER TABLE meta_3 RENAME TO meta;
        CREATE TABLE settings_3(slug TEXT NOT NULL, position INTEGER NOT NULL, title TEXT NOT NULL, type TEXT NOT NULL,
            options TEXT NOT NULL, selected INTEGER NOT NULL, PRIMARY KEY(slug)) WITHOUT ROWID;
        INSERT INTO settings_3 SELECT slug, position, title, type, options, selected FROM settings;
        DROP TABLE settings;
        ALTER TABLE settings_3 RENAME TO settings;
        CREATE TABLE menu_entries_3(section INTEGER NOT NULL, position INTEGER NOT NULL, slug TEXT NOT NULL,
            title TEXT NOT NULL, PRIMARY KEY(section, position)) WITHOUT ROWID;
        INSERT INTO menu_entries_3 SELECT section, position, slug, title FROM menu_entries;
        DROP TABLE menu_entries;
        ALTER TABLE menu_entries_3 RENAME TO menu_entries;
        """,
    ]

    // MARK: - Loading

    public func load() throws -> ModelSnapshot? {
        // `meta.revision` is the seed's; each commit's revision is its last history row (a
        // commit writes no meta row: one page fewer per commit). The newest row is never
        // trimmed, so the head is the larger of the two.
        guard let seeded = try meta("revision") else { return nil }
        let head = max(seeded, try db.scalarInt("SELECT max(rev) FROM history") ?? 0)
        return ModelSnapshot(revision: UInt64(head), mutations: try tables.load(from: db))
    }

    /// The file's history id, made and stored on first use (files from before ids get one
    /// then, and keep it).
    private func loadHistoryID() throws -> String {
        if let v = try meta("history_id") { return HistoryID.format(UInt64(bitPattern: v)) }
        let v = Int64.random(in: 1...Int64.max)
        try setMeta("history_id", v)
        return HistoryID.format(UInt64(v))
    }

    private func meta(_ key: String) throws -> Int64? {
        var v: Int64?
        try db.query("SELECT value FROM meta WHERE key = ?", [.text(key)]) { v = $0.int(0) }
        return v
    }

    // MARK: - Writing

    public func seed(_ s: ModelSnapshot) throws {
        try transaction {
            try tables.write(s.mutations, to: db)
            try setMeta("revision", Int64(s.revision))
        }
    }

    /// The history's rows, a batch's in few statements.
    static let historyInsert = SQLiteRowsInsert(
        "INSERT INTO history(rev, time, path, kind, summary, payload) VALUES ", columns: 6)

    /// How many revisions pass between two trims of the history: 256, or a 64th of a small
    /// bound (every commit for a bound under 128).
    var trimEvery: UInt64 { UInt64(min(256, max(1, historyLimit / 64))) }

    public func commit(_ batch: CommitBatch) throws {
        try checkFileIsOurs()
        let now = Date().timeIntervalSince1970
        try transaction {
            try tables.write(LastWrites.of(batch.mutations, singleKey: tables.singleKey), to: db)
            try SQLiteStore.historyInsert.run(batch.events.count, in: db) { i, values in
                let e = batch.events[i]
                let payload = e.storedPayload
                values += [
                    .int(Int64(e.rev)), .double(now), .text(e.path), .text(e.kind), .utf8(e.summaryLine.utf8),
                    .utf8(payload),
                ]
            }
            // Trimmed by the commit that passes a multiple of `trimEvery`, so the history holds
            // fewer than its bound plus that many (the rows to go are the oldest, found by the
            // primary key; trimming each commit cost two pages more per commit).
            let before = (batch.events.first?.rev ?? batch.revision) - 1
            if batch.revision > UInt64(historyLimit) && batch.revision / trimEvery != before / trimEvery {
                oldestKnown = nil
                try db.run("DELETE FROM history WHERE rev <= ?", [.int(Int64(batch.revision) - Int64(historyLimit))])
            }
        }
    }

    /// Refuses to commit when the file at `path` is no longer the one this store holds open
    /// (removed, or replaced by another file, perhaps another server's): an OK would then be
    /// for a change that is gone at the next start. One `fstat` and one `stat` per commit.
    private func checkFileIsOurs() throws {
        var held = Glibc.stat()
        var named = Glibc.stat()
        guard fstat(lockFD, &held) == 0 else { return }
        let exists = lstat(realPath, &named) == 0
        let replaced = exists && (named.st_ino != held.st_ino || named.st_dev != held.st_dev)
        guard replaced || !exists || held.st_nlink == 0 else { return }
        throw StorageError(
            "\(path) was \(replaced ? "replaced by another file" : "removed") while tabulad was running, so nothing more can be saved there; restart tabulad to go on (it starts from what the file at that path holds then)"
        )
    }

    private func transaction(_ body: () throws -> Void) throws {
        try db.run("BEGIN IMMEDIATE")  // prepared once, as COMMIT: not parsed each commit
        do {
            try body()
            try db.run("COMMIT")
        } catch {
            try? db.exec("ROLLBACK")
            throw error
        }
    }

    private func setMeta(_ key: String, _ value: Int64) throws {
        try db.run(
            "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [.text(key), .int(value)])
    }

    // MARK: - History

    /// Read once and kept until a trim moves it (the engine asks after every commit; a
    /// query each time cost a read transaction: a statement and four `fcntl` locks).
    public func oldestRevision() throws -> UInt64 {
        if let known = oldestKnown { return known }
        let oldest = UInt64(try db.scalarInt("SELECT min(rev) FROM history") ?? 0)
        if oldest > 0 { oldestKnown = oldest }
        return oldest
    }

    /// A read-only connection of its own to the same file.
    public func openHistoryReader() throws -> HistoryReader? {
        try SQLiteHistoryReader(path: path)
    }
}
