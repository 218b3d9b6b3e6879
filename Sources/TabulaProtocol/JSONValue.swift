/// Something that can give its JSON form when asked.
public protocol JSONRepresentable: Sendable {
    /// The value as JSON.
    var json: JSONValue { get }
    /// Appends its compact JSON text (by default, that of `json`).
    func writeJSON(to out: inout [UInt8])
}

extension JSONRepresentable {
    public func writeJSON(to out: inout [UInt8]) { json.write(to: &out) }
}

/// A JSON value, used for the JSON wire format and for event payloads.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])
    /// A value built only when something reads or writes it: rows and events carry one so
    /// that a text client, which never sees their JSON, never pays for building it.
    case deferred(any JSONRepresentable)

    /// The value itself: a deferred value built, anything else as it is.
    public var resolved: JSONValue {
        if case .deferred(let d) = self { return d.json.resolved }
        return self
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.deferred(let a), _): return a.json == rhs
        case (_, .deferred(let b)): return lhs == b.json
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// Looks a key up in an object; nil for anything else.
    public subscript(key: String) -> JSONValue? {
        if case .object(let pairs) = resolved { return pairs.first { $0.0 == key }?.1 }
        return nil
    }

    /// The string, if this is one.
    public var stringValue: String? { if case .string(let s) = resolved { return s }; return nil }
    /// The integer, if this is one.
    public var intValue: Int64? {
        switch resolved {
        case .int(let i): return i
        case .double(let d) where d == d.rounded() && abs(d) < 9e15: return Int64(d)
        default: return nil
        }
    }
    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let a) = resolved { return a }; return nil }

    /// Appends the compact JSON text of this value to `out`.
    public func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append("null")
        case .bool(let b): out.append(b ? "true" : "false")
        case .int(let i): JSONValue.writeInt(i, to: &out)
        case .double(let d):
            if d.isFinite { out.append(contentsOf: String(d).utf8) } else { out.append("null") }
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let pairs):
            out.append(UInt8(ascii: "{"))
            for (i, (k, v)) in pairs.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(k, to: &out)
                out.append(UInt8(ascii: ":"))
                v.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .deferred(let d): d.writeJSON(to: &out)
        }
    }

    /// The compact JSON text.
    public var jsonText: String {
        var out: [UInt8] = []
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `i` as a JSON number.
    public static func writeInt(_ i: Int64, to out: inout [UInt8]) {
        if i < 0 { out.append(UInt8(ascii: "-")) }
        WireEncoder.appendDecimal(i.magnitude, to: &out)
    }

    /// Appends `s` as a JSON string literal with the escapes JSON requires.
    public static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        writeEscaped(s, to: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// Appends the inside of `s`'s JSON string literal (no quotes): runs of bytes that need
    /// no escape are copied whole.
    public static func writeEscaped(_ s: String, to out: inout [UInt8]) {
        let copied: Void? = s.utf8.withContiguousStorageIfAvailable { bytes in
            var start = 0
            for i in bytes.indices where needsEscape(bytes[i]) {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                writeEscape(bytes[i], to: &out)
                start = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        guard copied == nil else { return }
        for b in s.utf8 {
            if needsEscape(b) { writeEscape(b, to: &out) } else { out.append(b) }
        }
    }

    @inline(__always) static func needsEscape(_ b: UInt8) -> Bool {
        b < 32 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b == 127
    }

    static func writeEscape(_ b: UInt8, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 6) { room in
            let n = writeEscape(b, at: room.baseAddress!)
            out.append(contentsOf: UnsafeBufferPointer(start: room.baseAddress!, count: n))
        }
    }

    /// Writes the escape JSON writes for `b` at `p` (room for 6 bytes); returns its length:
    /// the one table of escapes, for `[UInt8]` and `ByteWriter` alike.
    static func writeEscape(_ b: UInt8, at p: UnsafeMutablePointer<UInt8>) -> Int {
        p[0] = UInt8(ascii: "\\")
        switch b {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): p[1] = b
        case 10: p[1] = UInt8(ascii: "n")
        case 13: p[1] = UInt8(ascii: "r")
        case 9: p[1] = UInt8(ascii: "t")
        default:
            p[1] = UInt8(ascii: "u")
            p[2] = UInt8(ascii: "0")
            p[3] = UInt8(ascii: "0")
            p[4] = hex[Int(b >> 4)]
            p[5] = hex[Int(b & 15)]
            return 6
        }
        return 2
    }
}
