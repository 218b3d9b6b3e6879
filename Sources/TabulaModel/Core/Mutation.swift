/// One stored value: a column of a table row.
public enum StoredValue: Sendable, Hashable {
    case int(Int64)
    case double(Double)
    case text(String)

    /// The value as an integer (0 when it is not one).
    public var int: Int { if case .int(let v) = self { return Int(v) } else { return 0 } }
    /// The value as a number.
    public var double: Double {
        switch self {
        case .double(let v): return v
        case .int(let v): return Double(v)
        case .text: return 0
        }
    }
    /// The value as text ("" when it is not text).
    public var text: String { if case .text(let v) = self { return v } else { return "" } }
}

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
    public init(_ name: String, columns: [(String, String)], keyColumns: Int = 1, loadOrder: String, whole: Bool = false) {
        self.name = name
        self.columns = columns.map { (name: $0.0, type: $0.1) }
        self.keyColumns = keyColumns
        self.loadOrder = loadOrder
        self.whole = whole
    }
}

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

/// Everything stored, as storage loads it back: the revision and every list's mutations.
public struct ModelSnapshot: Sendable, Equatable {
    /// The revision of the last change.
    public var revision: UInt64
    /// What rebuilds the lists from empty, in order.
    public var mutations: [Mutation]

    /// Makes one.
    public init(revision: UInt64, mutations: [Mutation]) {
        self.revision = revision
        self.mutations = mutations
    }
}
