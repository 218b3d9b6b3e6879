/// Parses JSON text into `JSONValue`, keeping object keys in their order.
public enum JSONParser {
    /// The value in `text`, or nil if it is not exactly one JSON value.
    public static func parse(_ text: String) -> JSONValue? {
        var p = Parser(bytes: Array(text.utf8))
        guard let v = p.value() else { return nil }
        p.skipSpace()
        return p.i == p.bytes.count ? v : nil
    }

    struct Parser {
        let bytes: [UInt8]
        var i = 0
        var depth = 0

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 10 || bytes[i] == 13 { i += 1 }
        }

        mutating func literal(_ word: String, _ v: JSONValue) -> JSONValue? {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == w else { return nil }
            i += w.count
            return v
        }

        mutating func value() -> JSONValue? {
            skipSpace()
            guard i < bytes.count, depth < 200 else { return nil }
            switch bytes[i] {
            case UInt8(ascii: "n"): return literal("null", .null)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "\""): return string().map { .string($0) }
            case UInt8(ascii: "["):
                i += 1
                depth += 1
                defer { depth -= 1 }
                var items: [JSONValue] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                while true {
                    guard let v = value() else { return nil }
                    items.append(v)
                    skipSpace()
                    guard i < bytes.count else { return nil }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                    return nil
                }
            case UInt8(ascii: "{"):
                i += 1
                depth += 1
                defer { depth -= 1 }
                var pairs: [(String, JSONValue)] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(pairs) }
                while true {
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\""), let k = string() else { return nil }
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
                    i += 1
                    guard let v = value() else { return nil }
                    pairs.append((k, v))
                    skipSpace()
                    guard i < bytes.count else { return nil }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(pairs) }
                    return nil
                }
            default: return number()
            }
        }

        mutating func number() -> JSONValue? {
            let start = i
            var isDouble = false
            while i < bytes.count {
                let b = bytes[i]
                if (b >= 48 && b <= 57) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+") {
                    i += 1
                } else if b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
                    isDouble = true
                    i += 1
                } else {
                    break
                }
            }
            let s = String(decoding: bytes[start..<i], as: UTF8.self)
            if !isDouble, let n = Int64(s) { return .int(n) }
            return Double(s).map { .double($0) }
        }

        mutating func string() -> String? {
            i += 1
            var out: [UInt8] = []
            while i < bytes.count {
                let b = bytes[i]
                i += 1
                if b == UInt8(ascii: "\"") { return String(validating: out, as: UTF8.self) }
                if b != UInt8(ascii: "\\") { out.append(b); continue }
                guard i < bytes.count else { return nil }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case UInt8(ascii: "u"):
                    guard let sc = unicodeEscape() else { return nil }
                    appendUTF8(sc, to: &out)
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                default: return nil
                }
            }
            return nil
        }

        /// The scalar of a `\uXXXX` escape whose `\u` was just read: a surrogate pair when
        /// a high surrogate is followed at once by `\u` and a low one; nil for a lone
        /// surrogate of either kind (no scalar), which RFC 8259 leaves to the parser.
        mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let v = hex4() else { return nil }
            guard v >= 0xD800 && v < 0xDC00 else { return Unicode.Scalar(v) }
            guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                return nil
            }
            i += 2
            guard let lo = hex4(), lo >= 0xDC00 && lo < 0xE000 else { return nil }
            return Unicode.Scalar(0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00))
        }

        func appendUTF8(_ sc: Unicode.Scalar, to out: inout [UInt8]) {
            UTF8.encode(sc) { out.append($0) }
        }

        /// Four hex digits, exactly: no sign, no fewer.
        mutating func hex4() -> UInt32? {
            guard i + 4 <= bytes.count else { return nil }
            var v: UInt32 = 0
            for b in bytes[i..<i + 4] {
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): v = v << 4 | UInt32(b - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): v = v << 4 | UInt32(b - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): v = v << 4 | UInt32(b - UInt8(ascii: "A") + 10)
                default: return nil
                }
            }
            i += 4
            return v
        }
    }
}
