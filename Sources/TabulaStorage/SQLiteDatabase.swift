import CSQLite3
import Foundation

let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A thin, throwing wrapper over one sqlite3 connection.
final class SQLiteDatabase {
    let handle: OpaquePointer
    let path: String
    private var cache: [String: SQLiteStatement] = [:]
    /// The statements used last, looked through before `cache`: a commit's texts are the
    /// same strings each time, so `==` answers on their storage's identity, where hashing
    /// a statement's whole text cost ~2,000 instructions a lookup.
    private var recent: [(sql: String, statement: SQLiteStatement)] = []
    static let recentLimit = 12

    /// SQLite configured once, before its first open: no memory statistics (no global
    /// mutex per allocation; nothing here reads them).
    private static let configured: Int32 = tabula_sqlite_without_memory_statistics()

    /// Opens `path` for reading and writing (created when missing), or only for reading.
    init(path: String, readOnly: Bool = false) throws {
        _ = SQLiteDatabase.configured
        var db: OpaquePointer?
        let mode = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let rc = sqlite3_open_v2(path, &db, mode | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let msg = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            if let db { sqlite3_close(db) }
            throw StorageError(
                "cannot open \(path): \(msg); check the directory exists and is writable, or pick another --data path")
        }
        handle = db
        self.path = path
        sqlite3_busy_timeout(db, 2000)
        sqlite3_extended_result_codes(db, 1)
    }

    private var closed = false

    deinit { close() }

    /// Finalizes every statement and closes the connection (checkpointing the WAL).
    func close() {
        guard !closed else { return }
        closed = true
        recent.removeAll()
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    var errorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    func error(_ rc: Int32, _ what: String) -> StorageError {
        let base = rc & 0xFF
        if base == SQLITE_FULL { return StorageError("disk full while \(what) (\(path)); free some space") }
        if base == SQLITE_READONLY || base == SQLITE_CANTOPEN || base == SQLITE_PERM {
            return StorageError(
                "\(path) is not writable (\(errorMessage)); check its permissions or pick another --data path")
        }
        if base == SQLITE_NOTADB {
            return StorageError("\(path) is not a Tabula database (not SQLite at all); pick another --data path")
        }
        return StorageError(
            "\(what) failed on \(path): \(errorMessage) (SQLite code \(rc): \(String(cString: sqlite3_errstr(rc))))")
    }

    func exec(_ sql: String) throws {
        var err: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &err)
        if let err { sqlite3_free(err) }
        guard rc == SQLITE_OK else { throw error(rc, "running \(sql.prefix(40))") }
    }

    /// A prepared statement, cached by its text.
    func statement(_ sql: String) throws -> SQLiteStatement {
        for r in recent where r.sql == sql {
            r.statement.reset()
            return r.statement
        }
        if let s = cache[sql] {
            s.reset()
            remember(sql, s)
            return s
        }
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw error(rc, "preparing \(sql.prefix(40))") }
        let s = SQLiteStatement(stmt, db: self, sql: sql)
        cache[sql] = s
        remember(sql, s)
        return s
    }

    private func remember(_ sql: String, _ s: SQLiteStatement) {
        if recent.count == SQLiteDatabase.recentLimit { recent.removeFirst() }
        recent.append((sql, s))
    }

    /// Runs a statement with bindings to completion.
    func run(_ sql: String, _ values: [SQLiteValue] = []) throws {
        let s = try statement(sql)
        try s.bind(values)
        while try s.step() {}
    }

    /// The rows of a query.
    func query(_ sql: String, _ values: [SQLiteValue] = [], _ row: (SQLiteStatement) throws -> Void) throws {
        let s = try statement(sql)
        try s.bind(values)
        while try s.step() { try row(s) }
    }

    /// The rows of a query, while `row` returns true.
    func query(_ sql: String, _ values: [SQLiteValue] = [], _ row: (SQLiteStatement) throws -> Bool) throws {
        let s = try statement(sql)
        try s.bind(values)
        while try s.step() {
            if try !row(s) { break }
        }
        s.reset()
    }

    func scalarInt(_ sql: String) throws -> Int64? {
        var v: Int64?
        try query(sql) { v = $0.isNull(0) ? nil : $0.int(0) }
        return v
    }
}

/// A value to bind.
enum SQLiteValue {
    case int(Int64)
    case double(Double)
    case text(String)
    /// Text given as its UTF-8 bytes (a payload written as bytes need not become a String).
    case utf8([UInt8])
    case null
}

/// One prepared statement.
final class SQLiteStatement {
    let stmt: OpaquePointer
    unowned let db: SQLiteDatabase
    /// What it does, for error messages: the start of its SQL.
    let what: String

    init(_ stmt: OpaquePointer, db: SQLiteDatabase, sql: String) {
        self.stmt = stmt
        self.db = db
        self.what = String(sql.prefix(40))
    }

    deinit { sqlite3_finalize(stmt) }

    func reset() {
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
    }

    func bind(_ values: [SQLiteValue]) throws {
        for (i, v) in values.enumerated() {
            let idx = Int32(i + 1)
            let rc: Int32
            switch v {
            case .int(let n): rc = sqlite3_bind_int64(stmt, idx, n)
            case .double(let d): rc = sqlite3_bind_double(stmt, idx, d)
            case .text(var s): rc = s.withUTF8 { bindText($0, at: idx) }
            case .utf8(let bytes): rc = bytes.withUnsafeBufferPointer { bindText($0, at: idx) }
            case .null: rc = sqlite3_bind_null(stmt, idx)
            }
            guard rc == SQLITE_OK else { throw db.error(rc, "binding values for \(what)") }
        }
    }

    /// Binds text by pointer and length (SQLite copies it): no C string is made, no `strlen`.
    private func bindText(_ b: UnsafeBufferPointer<UInt8>, at idx: Int32) -> Int32 {
        guard let base = b.baseAddress, b.count > 0 else { return sqlite3_bind_text(stmt, idx, "", 0, sqliteTransient) }
        return base.withMemoryRebound(to: CChar.self, capacity: b.count) {
            sqlite3_bind_text(stmt, idx, $0, Int32(b.count), sqliteTransient)
        }
    }

    /// Steps once: true when a row is ready.
    func step() throws -> Bool {
        let rc = sqlite3_step(stmt)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw db.error(rc, "running \(what)")
    }

    /// How many columns a row of it has.
    var columnCount: Int32 { sqlite3_column_count(stmt) }
    func isNull(_ i: Int32) -> Bool { sqlite3_column_type(stmt, i) == SQLITE_NULL }
    func int(_ i: Int32) -> Int64 { sqlite3_column_int64(stmt, i) }
    func double(_ i: Int32) -> Double { sqlite3_column_double(stmt, i) }
    func text(_ i: Int32) -> String {
        // By length, as bound: text is never cut at a NUL byte.
        guard let p = sqlite3_column_text(stmt, i) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: p, count: Int(sqlite3_column_bytes(stmt, i))), as: UTF8.self)
    }
}
