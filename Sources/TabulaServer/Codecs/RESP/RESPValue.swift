import TabulaProtocol

/// A RESP value built before it is written (HELLO's map, COMMAND's tables): written in
/// RESP3's types, or their RESP2 forms (see `RESPWriter`).
public indirect enum RESPValue: Sendable, Equatable {
    case simple(String)
    case bulk(String)
    case integer(Int64)
    case null
    case array([RESPValue])
    case map([(String, RESPValue)])
    case set([RESPValue])

    public func write(resp3: Bool, into out: inout [UInt8]) { write(RESPWriter(resp3: resp3), into: &out) }

    public func encoded(resp3: Bool) -> [UInt8] {
        var out: [UInt8] = []
        write(resp3: resp3, into: &out)
        return out
    }

    func write(_ w: RESPWriter, into out: inout [UInt8]) {
        switch self {
        case .simple(let s): w.simple(s, into: &out)
        case .bulk(let s): w.bulk(s, into: &out)
        case .integer(let n): w.integer(n, into: &out)
        case .null: w.null(into: &out)
        case .array(let a):
            w.array(a.count, into: &out)
            for e in a { e.write(w, into: &out) }
        case .set(let a):
            w.set(a.count, into: &out)
            for e in a { e.write(w, into: &out) }
        case .map(let pairs):
            w.map(pairs.count, into: &out)
            for (k, v) in pairs {
                w.bulk(k, into: &out)
                v.write(w, into: &out)
            }
        }
    }

    public static func == (a: RESPValue, b: RESPValue) -> Bool { a.encoded(resp3: true) == b.encoded(resp3: true) }
}
