/// A table row. Lists hand over their own values and encode them only when something reads
/// the columns (durable storage does; a store that keeps nothing never pays for it).
public protocol StoredRow: Sendable {
    /// The columns, in the table's order.
    var values: [StoredValue] { get }
}

extension Array: StoredRow where Element == StoredValue {
    /// The row itself.
    public var values: [StoredValue] { self }
}
