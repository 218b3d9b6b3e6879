import TabulaModel

import TabulaProtocol

/// Who watches what: prefixes to connections (with the format each wants), for fan-out.
struct WatchHub {
    private var byPrefix: [String: Set<ConnectionID>] = [:]
    private var formats: [ConnectionID: WireFormat] = [:]
    private var byConnection: [ConnectionID: Set<String>] = [:]

    /// Whether nobody watches anything.
    var isEmpty: Bool { byPrefix.isEmpty }

    /// The number of (connection, prefix) watches.
    var count: Int { byConnection.values.reduce(0) { $0 + $1.count } }

    mutating func add(_ c: ConnectionID, _ prefix: String, format: WireFormat) {
        formats[c] = format
        byPrefix[prefix, default: []].insert(c)
        byConnection[c, default: []].insert(prefix)
    }

    /// Removes one prefix, or all of the connection's when nil; returns how many were removed.
    @discardableResult
    mutating func remove(_ c: ConnectionID, _ prefix: String?) -> Int {
        let prefixes = prefix.map { [$0] } ?? Array(byConnection[c] ?? [])
        var n = 0
        for p in prefixes where byConnection[c]?.remove(p) != nil {
            n += 1
            byPrefix[p]?.remove(c)
            if byPrefix[p]?.isEmpty == true { byPrefix[p] = nil }
        }
        if byConnection[c]?.isEmpty == true {
            byConnection[c] = nil
            formats[c] = nil
        }
        return n
    }

    /// The prefixes `c` watches.
    func prefixes(of c: ConnectionID) -> Set<String> { byConnection[c] ?? [] }

    /// Records a connection's new wire format, for the events it is sent.
    mutating func setFormat(_ c: ConnectionID, _ format: WireFormat) {
        if formats[c] != nil { formats[c] = format }
    }

    /// Every connection watching a prefix of `path`, each once, with its format.
    func watchers(of path: String) -> [(ConnectionID, WireFormat)] {
        var out: [ConnectionID] = []
        var matched = 0
        for (p, conns) in byPrefix where ModelPath.isUnder(path, prefix: p) {
            matched += 1
            out += conns
        }
        if matched > 1 { out = Array(Set(out)) }
        return out.map { ($0, formats[$0] ?? .text) }
    }
}
