/// A table row. Lists hand over their own values and encode them only when something reads
/// the columns (durable storage does; a store that keeps nothing never pays for it).
public protocol StoredRow: Sendable {
    /// The columns, in the table's order.
    var values: [StoredValue] { get }
    /// The first column (a one-column key), without encoding the others.
    var key: StoredValue { get }
}

extension StoredRow {
    /// The first of `values`.
    public var key: StoredValue { values[0] }
}

extension Array: StoredRow where Element == StoredValue {
    /// The row itself.
    public var values: [StoredValue] { self }
}
