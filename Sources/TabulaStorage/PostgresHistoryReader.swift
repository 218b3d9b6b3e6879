import TabulaModel
import TabulaProtocol

/// The change table, read through a connection of its own (an I/O loop's replays). It
/// connects on first use and again after a failure.
final class PostgresHistoryReader: HistoryReader {
    private let db: PGLazyConnection

    init(conninfo: String) { db = PGLazyConnection(conninfo, name: "tabulad-replay") }

    private func connection() throws -> PGConnection { try db.get() }

    func oldestRevision() throws -> UInt64 {
        UInt64(try connection().exec("SELECT coalesce(min(rev), 0) FROM tabula_changes").int(0, 0))
    }

    func count(after: UInt64, through: UInt64, under prefix: String, limit: Int) throws -> (count: Int, through: UInt64)
    {
        let sql =
            "SELECT count(*), coalesce(max(rev), 0) FROM (\(PostgresHistoryReader.eventsSQL(prefix, columns: "rev"))) AS counted"
        let r = try connection().exec(
            sql,
            PostgresHistoryReader.params(after, through, prefix) + [String(limit)]
                + PostgresHistoryReader.listParam(prefix))
        let n = Int(r.int(0, 0))
        return (n, n == limit ? UInt64(r.int(0, 1)) : through)
    }

    func events(
        after: UInt64, through: UInt64, under prefix: String, limit: Int, payload: Bool, more: (Event) -> Bool
    ) throws -> [Event] {
        let r = try connection().exec(
            PostgresHistoryReader.eventsSQL(
                prefix, columns: payload ? PostgresHistoryReader.columns : "rev, kind, path, summary"),
            PostgresHistoryReader.params(after, through, prefix) + [String(limit)]
                + PostgresHistoryReader.listParam(prefix))
        var out: [Event] = []
        for i in 0..<r.count {
            let e = r.event(i, payload: payload)
            out.append(e)
            if !more(e) { break }
        }
        return out
    }

    private static let columns = "rev, kind, path, summary, payload"

    /// Under `/`, the range in revision order. Under any other prefix, only its list's
    /// changes ($6) and `/`'s can concern it: each part read through `tabula_changes_list` in
    /// revision order and the two merged, so a replay costs its list's changes in the range,
    /// not every list's.
    static func eventsSQL(_ prefix: String, columns: String = columns) -> String {
        let range = "rev > $1 AND rev <= $2 AND \(under) ORDER BY rev LIMIT $5"
        guard prefix != "/" else { return "SELECT \(columns) FROM tabula_changes WHERE \(range)" }
        let part = { (list: String) in
            "(SELECT \(columns) FROM tabula_changes WHERE \(PostgresSchema.listOfPath) = \(list) AND \(range))"
        }
        return "SELECT \(columns) FROM (\(part("$6")) UNION ALL \(part("''"))) AS parts ORDER BY rev LIMIT $5"
    }

    /// `settings` of `/settings/my-int`: the list parameter, none under `/`.
    private static func listParam(_ prefix: String) -> [String?] {
        prefix == "/" ? [] : [String(ModelPath.topName(of: prefix))]
    }

    /// A path under $3: every path when it is "/", else the path itself or one starting with
    /// it and a slash (`starts_with` compares bytes, whatever the database's collation).
    /// Under the prefix, or a removal of something the prefix lies under (`Event.concerns`).
    private static let under =
        "($3 = '/' OR path = $3 OR starts_with(path, $4) OR (kind IN ('rm', 'clear') AND (path = '/' OR starts_with($4, path || '/'))))"

    private static func params(_ after: UInt64, _ through: UInt64, _ prefix: String) -> [String?] {
        [String(min(after, UInt64(Int64.max))), String(min(through, UInt64(Int64.max))), prefix, prefix + "/"]
    }
}

extension PGResult {
    /// The event of row `i` of a change-table query whose first columns are rev, kind, path,
    /// summary and, with `payload`, payload (else its value is null and it has no context).
    func event(_ i: Int, payload: Bool = true) -> Event {
        let rev = UInt64(int(i, 0)), kind = text(i, 1) ?? "", path = text(i, 2) ?? "", summary = text(i, 3) ?? ""
        guard payload else { return Event(rev: rev, kind: kind, path: path, summary: summary, value: .null) }
        return Event(rev: rev, kind: kind, path: path, summary: summary, storedPayload: text(i, 4) ?? "null")
    }
}
