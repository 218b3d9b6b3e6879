/// JSON text as a node stored it (an event's payload read back from the store): written out
/// as it is and parsed only when its value is read, so that following other nodes' changes
/// parses no payload that no JSON client asks for.
public struct StoredJSON: JSONRepresentable {
    /// The compact JSON text, as `JSONValue.write` made it.
    public let text: String

    public init(_ text: String) { self.text = text.isEmpty ? "null" : text }

    public var json: JSONValue { JSONParser.parse(text) ?? .null }

    public func writeJSON(to out: inout [UInt8]) { out.append(contentsOf: text.utf8) }
}

extension JSONValue {
    /// Whether it is null, told without parsing stored text (`StoredJSON` keeps "null" as it is).
    public var isNull: Bool {
        switch self {
        case .null: return true
        case .deferred(let d as StoredJSON): return d.text == "null"
        case .deferred(let d): return d.json == .null
        default: return false
        }
    }
}
