/// An INSERT of many rows in few statements: one per 16, 4 or 1 rows, each prepared once, as
/// running a statement costs SQLite about as much as writing a row (its reset, bindings and
/// statement journal). A group commit's rows of one table go in together.
struct SQLiteRowsInsert {
    /// The statements by how many rows each writes, largest first.
    let statements: [(rows: Int, sql: String)]
    let columns: Int

    /// `head` is the statement up to `VALUES ` (`INSERT [OR REPLACE] INTO t(a, b) VALUES `).
    init(_ head: String, columns: Int) {
        let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
        statements = [16, 4, 1].map { n in (n, head + Array(repeating: row, count: n).joined(separator: ", ")) }
        self.columns = columns
    }

    /// Inserts `count` rows in order; `row(i, &values)` appends the values of row `i`.
    func run(_ count: Int, in db: SQLiteDatabase, row: (Int, inout [SQLiteValue]) -> Void) throws {
        var done = 0
        while done < count {
            let (rows, sql) = statements.first { $0.rows <= count - done }!
            var values: [SQLiteValue] = []
            values.reserveCapacity(rows * columns)
            for i in done..<(done + rows) { row(i, &values) }
            try db.run(sql, values)
            done += rows
        }
    }
}
