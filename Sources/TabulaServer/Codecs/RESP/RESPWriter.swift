import TabulaProtocol

/// Writes RESP values into a byte buffer: RESP3's types, or their RESP2 forms (a map as a
/// flat array of keys and values, a set or push as an array, null as the null bulk string,
/// a boolean as 1 or 0, a double as a bulk string).
public struct RESPWriter {
    /// RESP3 (after `HELLO 3`), else RESP2.
    public let resp3: Bool

    public init(resp3: Bool) { self.resp3 = resp3 }

    /// `+text`: a status on one line (line breaks and controls made visible).
    public func simple(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "+"))
        WireEncoder.appendOneLine(text, to: &out)
        crlf(&out)
    }

    /// `-CODE message`.
    public func error(_ code: String, _ message: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "-"))
        out.append(contentsOf: code.utf8)
        out.append(32)
        WireEncoder.appendOneLine(message, to: &out)
        crlf(&out)
    }

    public func integer(_ n: Int64, into out: inout [UInt8]) {
        out.append(UInt8(ascii: ":"))
        out.append(contentsOf: String(n).utf8)
        crlf(&out)
    }

    /// A bulk string: binary-safe, its length first.
    public func bulk<C: Collection>(_ bytes: C, into out: inout [UInt8]) where C.Element == UInt8 {
        header(UInt8(ascii: "$"), bytes.count, into: &out)
        out.append(contentsOf: bytes)
        crlf(&out)
    }

    public func bulk(_ s: String, into out: inout [UInt8]) { bulk(s.utf8, into: &out) }

    public func null(into out: inout [UInt8]) {
        out.append(contentsOf: resp3 ? Array("_\r\n".utf8) : Array("$-1\r\n".utf8))
    }

    public func bool(_ b: Bool, into out: inout [UInt8]) {
        if resp3 {
            out.append(contentsOf: (b ? "#t\r\n" : "#f\r\n").utf8)
        } else {
            integer(b ? 1 : 0, into: &out)
        }
    }

    public func double(_ d: Double, into out: inout [UInt8]) {
        if resp3 {
            out.append(UInt8(ascii: ","))
            out.append(contentsOf: "\(d)".utf8)
            crlf(&out)
        } else {
            bulk("\(d)", into: &out)
        }
    }

    /// The header of an array of `n` elements.
    public func array(_ n: Int, into out: inout [UInt8]) { header(UInt8(ascii: "*"), n, into: &out) }

    /// The header of a map of `n` pairs (RESP2: an array of 2n).
    public func map(_ n: Int, into out: inout [UInt8]) {
        resp3 ? header(UInt8(ascii: "%"), n, into: &out) : header(UInt8(ascii: "*"), 2 * n, into: &out)
    }

    /// The header of a set of `n` elements (RESP2: an array).
    public func set(_ n: Int, into out: inout [UInt8]) {
        header(resp3 ? UInt8(ascii: "~") : UInt8(ascii: "*"), n, into: &out)
    }

    /// The header of a push of `n` elements (RESP2, in subscribe mode: an array).
    public func push(_ n: Int, into out: inout [UInt8]) {
        header(resp3 ? UInt8(ascii: ">") : UInt8(ascii: "*"), n, into: &out)
    }

    /// A JSON value as RESP: an object as a map, an array as an array, a string as a bulk
    /// string, numbers, booleans and null as themselves.
    public func json(_ v: JSONValue, into out: inout [UInt8]) {
        switch v {
        case .null: null(into: &out)
        case .bool(let b): bool(b, into: &out)
        case .int(let n): integer(n, into: &out)
        case .double(let d): double(d, into: &out)
        case .string(let s): bulk(s, into: &out)
        case .array(let a):
            array(a.count, into: &out)
            for e in a { json(e, into: &out) }
        case .object(let pairs):
            map(pairs.count, into: &out)
            for (k, e) in pairs {
                bulk(k, into: &out)
                json(e, into: &out)
            }
        case .deferred(let d): json(d.json, into: &out)
        }
    }

    private func header(_ type: UInt8, _ n: Int, into out: inout [UInt8]) {
        out.append(type)
        WireEncoder.appendDecimal(UInt64(n), to: &out)
        crlf(&out)
    }

    private func crlf(_ out: inout [UInt8]) {
        out.append(13)
        out.append(10)
    }
}
