import TabulaProtocol

/// The SQLite store's history, read through a read-only connection of its own (WAL mode lets
/// it read while the engine writes).
final class SQLiteHistoryReader: HistoryReader {
    private let db: SQLiteDatabase

    init(path: String) throws {
        db = try SQLiteDatabase(path: path, readOnly: true)
    }

    func oldestRevision() throws -> UInt64 {
        UInt64(try db.scalarInt("SELECT min(rev) FROM history") ?? 0)
    }

    func count(after: UInt64, through: UInt64, under prefix: String) throws -> Int {
        var n = 0
        try db.query("SELECT count(*) FROM history WHERE rev > ?1 AND rev <= ?2 AND \(SQLiteHistoryReader.under)", SQLiteHistoryReader.bindings(after, through, prefix)) { n = Int($0.int(0)) }
        return n
    }

    func events(after: UInt64, through: UInt64, under prefix: String, limit: Int, more: (Event) -> Bool) throws -> [Event] {
        var out: [Event] = []
        try db.query("SELECT rev, kind, path, summary, payload FROM history WHERE rev > ?1 AND rev <= ?2 AND \(SQLiteHistoryReader.under) ORDER BY rev LIMIT ?6", SQLiteHistoryReader.bindings(after, through, prefix) + [.int(Int64(limit))]) { r in
            let e = Event(rev: UInt64(r.int(0)), kind: r.text(1), path: r.text(2), summary: r.text(3), value: .deferred(StoredJSON(r.text(4))))
            out.append(e)
            return more(e)
        }
        return out
    }

    /// A path under ?3: every path when it is "/", else the path itself or one starting with
    /// it and a slash (the range ["p/", "p0"): '0' follows '/' in bytes).
    /// Under the prefix, or a removal of something the prefix lies under (`Event.concerns`).
    private static let under = "(?3 = '/' OR path = ?3 OR (path >= ?4 AND path < ?5) OR (kind IN ('rm', 'clear') AND (path = '/' OR substr(?4, 1, length(path) + 1) = path || '/')))"

    private static func bindings(_ after: UInt64, _ through: UInt64, _ prefix: String) -> [SQLiteValue] {
        [.int(Int64(clamping: after)), .int(Int64(clamping: through)), .text(prefix), .text(prefix + "/"), .text(prefix + "0")]
    }
}
