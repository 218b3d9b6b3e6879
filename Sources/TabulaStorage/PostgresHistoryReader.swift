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

    func count(after: UInt64, through: UInt64, under prefix: String) throws -> Int {
        Int(try connection().exec("SELECT count(*) FROM tabula_changes WHERE rev > $1 AND rev <= $2 AND \(PostgresHistoryReader.under)", PostgresHistoryReader.params(after, through, prefix)).int(0, 0))
    }

    func events(after: UInt64, through: UInt64, under prefix: String, limit: Int, more: (Event) -> Bool) throws -> [Event] {
        let r = try connection().exec("SELECT rev, kind, path, summary, payload FROM tabula_changes WHERE rev > $1 AND rev <= $2 AND \(PostgresHistoryReader.under) ORDER BY rev LIMIT $5", PostgresHistoryReader.params(after, through, prefix) + [String(limit)])
        var out: [Event] = []
        for i in 0..<r.count {
            let e = r.event(i)
            out.append(e)
            if !more(e) { break }
        }
        return out
    }

    /// A path under $3: every path when it is "/", else the path itself or one starting with
    /// it and a slash (`starts_with` compares bytes, whatever the database's collation).
    /// Under the prefix, or a removal of something the prefix lies under (`Event.concerns`).
    private static let under = "($3 = '/' OR path = $3 OR starts_with(path, $4) OR (kind IN ('rm', 'clear') AND (path = '/' OR starts_with($4, path || '/'))))"

    private static func params(_ after: UInt64, _ through: UInt64, _ prefix: String) -> [String?] {
        [String(min(after, UInt64(Int64.max))), String(min(through, UInt64(Int64.max))), prefix, prefix + "/"]
    }
}

extension PGResult {
    /// The event of row `i` of a change-table query whose first columns are rev, kind, path,
    /// summary, payload.
    func event(_ i: Int) -> Event {
        Event(rev: UInt64(int(i, 0)), kind: text(i, 1) ?? "", path: text(i, 2) ?? "", summary: text(i, 3) ?? "", value: .deferred(StoredJSON(text(i, 4) ?? "null")))
    }
}
