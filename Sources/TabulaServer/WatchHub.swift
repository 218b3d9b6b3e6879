import TabulaModel

/// Who watches what: prefixes to connections, for fan-out.
struct WatchHub {
    private var byPrefix: [String: Set<ConnectionID>] = [:]
    private var byConnection: [ConnectionID: Set<String>] = [:]

    /// The number of (connection, prefix) watches.
    var count: Int { byConnection.values.reduce(0) { $0 + $1.count } }

    mutating func add(_ c: ConnectionID, _ prefix: String) {
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
        if byConnection[c]?.isEmpty == true { byConnection[c] = nil }
        return n
    }

    /// The prefixes `c` watches.
    func prefixes(of c: ConnectionID) -> Set<String> { byConnection[c] ?? [] }

    /// Every connection watching a prefix of `path`, each once.
    func watchers(of path: String) -> [ConnectionID] {
        var out: [ConnectionID] = []
        var matched = 0
        for (p, conns) in byPrefix where ModelPath.isUnder(path, prefix: p) {
            matched += 1
            out += conns
        }
        if matched > 1 { out = Array(Set(out)) }
        return out
    }
}
