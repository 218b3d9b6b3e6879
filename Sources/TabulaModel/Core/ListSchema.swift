/// How durable storage keeps one list: its tables and its id counters.
public struct ListSchema: Sendable {
    /// Tables, loaded in this order.
    public var tables: [TableSchema]
    /// Names of counters (the next id to hand out).
    public var counters: [String]

    /// Makes one.
    public init(tables: [TableSchema], counters: [String] = []) {
        self.tables = tables
        self.counters = counters
    }
}
