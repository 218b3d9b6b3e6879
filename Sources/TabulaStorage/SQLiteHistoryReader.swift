import TabulaModel
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

    func count(after: UInt64, through: UInt64, under prefix: String, limit: Int) throws -> (count: Int, through: UInt64)
    {
        // The first `limit` revisions of each part in the index's order, merged: a step costs
        // at most `limit` of the list's events, however many the range holds.
        let part = { (list: String) in
            "SELECT rev FROM (SELECT rev FROM history WHERE \(list) AND rev > ?1 AND rev <= ?2 AND \(SQLiteHistoryReader.under) ORDER BY rev LIMIT ?7)"
        }
        let revs =
            prefix == "/"
            ? part("?6 = ?6")
            : "\(part("\(SQLiteHistoryReader.list) = ?6")) UNION ALL \(part("\(SQLiteHistoryReader.list) = '' AND ?6 = ?6"))"
        var n = 0, last: UInt64 = 0
        try db.query(
            "SELECT count(*), coalesce(max(rev), 0) FROM (SELECT rev FROM (\(revs)) ORDER BY rev LIMIT ?7)",
            SQLiteHistoryReader.bindings(after, through, prefix) + [.int(Int64(limit))]
        ) { (r: SQLiteStatement) -> Void in
            n = Int(r.int(0))
            last = UInt64(r.int(1))
        }
        return (n, n == limit ? last : through)
    }

    func events(
        after: UInt64, through: UInt64, under prefix: String, limit: Int, payload: Bool, more: (Event) -> Bool
    ) throws -> [Event] {
        // Each part is read in the index's order (no sort): the list's events, then `/`'s
        // (a removal of `/` concerns everything; rare), merged by revision.
        let bind = SQLiteHistoryReader.bindings(after, through, prefix) + [.int(Int64(limit))]
        let select = "SELECT rev, kind, path, summary\(payload ? ", payload" : "") FROM history WHERE"
        let range = "rev > ?1 AND rev <= ?2 AND \(SQLiteHistoryReader.under) ORDER BY rev LIMIT ?7"
        guard prefix != "/" else { return try read("\(select) ?6 = ?6 AND \(range)", bind, more: more) }
        var full = false  // the list's part stopped short (its bytes): nothing after it may go
        let own = try read("\(select) \(SQLiteHistoryReader.list) = ?6 AND \(range)", bind) { e in
            full = !more(e)
            return !full
        }
        let last = full || own.count == limit ? own.last?.rev ?? through : through
        let root = try read("\(select) \(SQLiteHistoryReader.list) = '' AND ?6 = ?6 AND \(range)", bind) {
            _ in true
        }.filter { $0.rev <= last }
        var out: [Event] = []
        var i = 0, j = 0
        while out.count < limit, i < own.count || j < root.count {
            let e: Event
            if j >= root.count || (i < own.count && own[i].rev < root[j].rev) {
                e = own[i]
                i += 1
            } else {
                e = root[j]
                j += 1
            }
            out.append(e)
        }
        return out
    }

    /// The events `sql` selects: with their payload when it selects a fifth column.
    private func read(_ sql: String, _ bind: [SQLiteValue], more: (Event) -> Bool) throws -> [Event] {
        var out: [Event] = []
        try db.query(sql, bind) { r in
            let rev = UInt64(r.int(0)), kind = r.text(1), path = r.text(2), summary = r.text(3)
            let e =
                r.columnCount > 4
                ? Event(rev: rev, kind: kind, path: path, summary: summary, storedPayload: r.text(4))
                : Event(rev: rev, kind: kind, path: path, summary: summary, value: .null)
            out.append(e)
            return more(e)
        }
        return out
    }

    /// A path under ?3: every path when it is "/", else the path itself or one starting with
    /// it and a slash (the range ["p/", "p0"): '0' follows '/' in bytes).
    /// Under the prefix, or a removal of something the prefix lies under (`Event.concerns`).
    private static let under =
        "(?3 = '/' OR path = ?3 OR (path >= ?4 AND path < ?5) OR (kind IN ('rm', 'clear') AND (path = '/' OR substr(?4, 1, length(path) + 1) = path || '/')))"

    /// The top-level list of a path, as the `history_list` index has it: `settings` of
    /// `/settings/my-int`, '' of `/`.
    static let list = "substr(path, 2, instr(substr(path, 2) || '/', '/') - 1)"

    private static func bindings(_ after: UInt64, _ through: UInt64, _ prefix: String) -> [SQLiteValue] {
        let list = ModelPath.topName(of: prefix)
        return [
            .int(Int64(clamping: after)), .int(Int64(clamping: through)), .text(prefix), .text(prefix + "/"),
            .text(prefix + "0"), .text(String(list)),
        ]
    }
}
