/// The servers a client may use, in order of preference: `--host a:8228 --host b` or
/// `--host a,b:8229`. It connects to the first that answers and, when that one goes away,
/// tries the next ones in turn (wrapping round), the lost one last.
public struct HostList: Sendable, Equatable {
    /// Every endpoint, as given.
    public let endpoints: [Endpoint]

    /// Parses the `--host` values (each a comma list of `host` or `host:port`; `[v6]:port`
    /// for IPv6) with `port` for entries without one. Throws a message on a bad entry.
    public init(_ values: [String], defaultPort port: Int, tls: Bool, caFile: String?) throws(HostListError) {
        var out: [Endpoint] = []
        for value in values {
            for raw in value.split(separator: ",", omittingEmptySubsequences: false) {
                let entry = raw.trimmingCharacters(in: .whitespaces)
                guard !entry.isEmpty else {
                    throw HostListError("empty host in '\(value)'; write --host a:8228,b:8228")
                }
                let (host, p) = try HostList.split(entry, defaultPort: port)
                out.append(tls ? .tls(host: host, port: p, caFile: caFile) : .tcp(host: host, port: p))
            }
        }
        endpoints = out
    }

    /// Just these endpoints.
    public init(endpoints: [Endpoint]) { self.endpoints = endpoints }

    private static func split(_ entry: String, defaultPort: Int) throws(HostListError) -> (String, Int) {
        var host = entry
        var portText: Substring?
        if entry.hasPrefix("[") {
            guard let close = entry.firstIndex(of: "]") else { throw HostListError("'\(entry)' opens [ without ]") }
            host = String(entry[entry.index(after: entry.startIndex)..<close])
            let rest = entry[entry.index(after: close)...]
            if rest.hasPrefix(":") {
                portText = rest.dropFirst()
            } else if !rest.isEmpty {
                throw HostListError("'\(entry)': expected :PORT after ]")
            }
        } else if entry.filter({ $0 == ":" }).count == 1, let colon = entry.firstIndex(of: ":") {
            host = String(entry[..<colon])
            portText = entry[entry.index(after: colon)...]
        }
        guard let portText else { return (host, defaultPort) }
        guard let p = Int(portText), (1...65535).contains(p) else {
            throw HostListError("bad port in '\(entry)'; ports are 1 to 65535")
        }
        return (host, p)
    }

    /// The order to try after losing endpoint `current`: the following ones, wrapping round,
    /// `current` last.
    public func failoverOrder(after current: Int) -> [Int] {
        (1...endpoints.count).map { (current + $0) % endpoints.count }
    }
}

/// A bad `--host` value.
public struct HostListError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
