/// One table of a list, as durable storage keeps it.
public struct TableSchema: Sendable {
    /// The table's name.
    public var name: String
    /// Column names and their SQL types (`INTEGER`, `REAL`, `TEXT`), in record order.
    public var columns: [(name: String, type: String)]
    /// How many leading columns make the primary key.
    public var keyColumns: Int
    /// The order to load rows in (an SQL `ORDER BY` list of its columns).
    public var loadOrder: String
    /// Loaded as one `replaceAll` rather than row by row.
    public var whole: Bool

    /// Makes one.
    public init(
        _ name: String, columns: [(String, String)], keyColumns: Int = 1, loadOrder: String, whole: Bool = false
    ) {
        self.name = name
        self.columns = columns.map { (name: $0.0, type: $0.1) }
        self.keyColumns = keyColumns
        self.loadOrder = loadOrder
        self.whole = whole
    }
}
