import TabulaModel
import TabulaProtocol

/// Mutations as JSON text, for a store that hands one node's changes to the others (the
/// PostgreSQL change table): `[["items","put",[3,"Cake",7,…]],["items","delete",3],
/// ["bands","all",[[…],…]],["items.next","counter",9]]`. Decoding gives each value its
/// column's type, so a REAL written as `3` comes back as 3.0.
public struct MutationCodec: Sendable {
    private let columnTypes: [String: [String]]

    /// A codec for the registered lists' tables.
    public init(_ registered: [any ListStore.Type] = Model.registered) {
        var types: [String: [String]] = [:]
        for list in registered {
            for t in list.schema.tables { types[t.name] = t.columns.map(\.type) }
        }
        columnTypes = types
    }

    /// The JSON text of `mutations`, written as bytes (every write of a cluster node encodes
    /// its mutations into the change log).
    public func encode(_ mutations: [Mutation]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(64 * mutations.count + 2)
        out.append("[")
        for (i, m) in mutations.enumerated() {
            if i > 0 { out.append(",") }
            out.append("[")
            JSONValue.writeString(m.table, to: &out)
            switch m.change {
            case .put(let row):
                out.append(#","put","#)
                MutationCodec.write(row.values, to: &out)
            case .delete(let key):
                out.append(#","delete","#)
                MutationCodec.write(key, to: &out)
            case .replaceAll(let rows):
                out.append(#","all",["#)
                for (k, row) in rows.enumerated() {
                    if k > 0 { out.append(",") }
                    MutationCodec.write(row, to: &out)
                }
                out.append("]")
            case .counter(let v):
                out.append(#","counter","#)
                JSONValue.writeInt(v, to: &out)
            }
            out.append("]")
        }
        out.append("]")
        return String(decoding: out, as: UTF8.self)
    }

    private static func write(_ row: [StoredValue], to out: inout [UInt8]) {
        out.append("[")
        for (i, v) in row.enumerated() {
            if i > 0 { out.append(",") }
            write(v, to: &out)
        }
        out.append("]")
    }

    private static func write(_ v: StoredValue, to out: inout [UInt8]) {
        switch v {
        case .int(let n): JSONValue.writeInt(n, to: &out)
        case .double(let d): JSONValue.double(d).write(to: &out)
        case .text(let s): JSONValue.writeString(s, to: &out)
        }
    }

    /// The mutations of `text`; throws when it is not what `encode` writes for these tables.
    public func decode(_ text: String) throws -> [Mutation] {
        guard case .array(let items)? = JSONParser.parse(text) else {
            throw StorageError("a stored change is not a JSON array; the change table is damaged")
        }
        return try items.map { item in
            guard case .array(let parts) = item, parts.count == 3, case .string(let table) = parts[0],
                case .string(let kind) = parts[1]
            else {
                throw StorageError("a stored change has a malformed mutation; the change table is damaged")
            }
            if kind == "counter" { return Mutation(table, .counter(parts[2].intValue ?? 0)) }
            guard let types = columnTypes[table] else {
                throw StorageError(
                    "a stored change names table \(table), which this tabulad does not know; run a newer tabulad")
            }
            switch kind {
            case "put": return Mutation(table, .put(try row(parts[2], types)))
            case "delete": return Mutation(table, .delete(value(parts[2], types[0])))
            case "all":
                guard case .array(let rows) = parts[2] else {
                    throw StorageError("a stored change has a malformed table of \(table)")
                }
                return Mutation(table, .replaceAll(try rows.map { try row($0, types) }))
            default: throw StorageError("a stored change has an unknown mutation kind \(kind); run a newer tabulad")
            }
        }
    }

    private func row(_ v: JSONValue, _ types: [String]) throws -> [StoredValue] {
        guard case .array(let values) = v, values.count == types.count else {
            throw StorageError("a stored change has a row of the wrong width; the change table is damaged")
        }
        return zip(values, types).map { value($0, $1) }
    }

    private func value(_ v: JSONValue, _ type: String) -> StoredValue {
        switch (type, v) {
        case ("INTEGER", _): return .int(v.intValue ?? 0)
        case ("REAL", .double(let d)): return .double(d)
        case ("REAL", .int(let n)): return .double(Double(n))
        case (_, .string(let s)): return .text(s)
        default: return .text("")
        }
    }
}
