/// A change to stored state, in the terms of a list's tables: what durable storage writes
/// and what a model applies to follow it. A list's writes produce them; applying them in
/// order to an empty model rebuilds the model that produced them.
public struct Mutation: Sendable, Equatable {
    /// What happens to the table.
    public enum Change: Sendable, Equatable {
        /// Insert or replace the row whose key columns match.
        case put(any StoredRow)
        /// Delete the row whose first column is this.
        case delete(StoredValue)
        /// Replace every row (for small tables written whole).
        case replaceAll([[StoredValue]])
        /// Raise the named counter to at least this (ids never reused).
        case counter(Int64)

        public static func == (a: Change, b: Change) -> Bool {
            switch (a, b) {
            case (.put(let x), .put(let y)): return x.values == y.values
            case (.delete(let x), .delete(let y)): return x == y
            case (.replaceAll(let x), .replaceAll(let y)): return x == y
            case (.counter(let x), .counter(let y)): return x == y
            default: return false
            }
        }
    }

    /// The table, or for `.counter` the counter's name.
    public var table: String
    /// What happens.
    public var change: Change

    /// Makes one.
    public init(_ table: String, _ change: Change) {
        self.table = table
        self.change = change
    }
}
