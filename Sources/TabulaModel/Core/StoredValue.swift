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
