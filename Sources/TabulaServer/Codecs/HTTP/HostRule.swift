import TabulaProtocol

/// Which `Host` an HTTP request may name: the defence against DNS rebinding, where a page of
/// another site has its own name resolve to 127.0.0.1 and then reads and writes this server
/// as if it were of the same origin. Such a request names the attacker's host, so every
/// request (reads included) must name this server: `localhost` (or a name under
/// `.localhost`), an IP address literal (which no page of another name can send: a browser
/// sends the host of the URL it fetches), the `--bind` address, or a name given with
/// `--http-host`. The port is not compared. A request without a Host (HTTP/1.0, a script)
/// is no browser's and is taken. Pure: tested alone.
struct HostRule: Sendable {
    /// The names, lowercased, that `--http-host` and `--bind` add.
    let names: Set<String>

    init(bind: String, extra: [String]) {
        var names = Set(extra.map { HostRule.normalized($0) })
        names.insert(HostRule.normalized(bind))
        self.names = names
    }

    /// Why a request with this Host header is refused, or nil when it names this server.
    func refusal(_ host: String?) -> String? {
        guard let host else { return nil }
        let name = HostRule.name(ofHost: host)
        if name == "localhost" || name.hasSuffix(".localhost") || names.contains(name) { return nil }
        if HostRule.isIPLiteral(name) { return nil }
        return "this server answers to localhost, its IP addresses and the names given with --http-host, "
            + "and Host '\(TabulaError.quoting(host))' is none of them (a page of another site may not reach it); "
            + "if it is this server's name, start tabulad with --http-host \(TabulaError.quoting(name))"
    }

    /// The host of a Host header without its port, lowercased, with no trailing dot:
    /// `localhost` of `LocalHost.:8080`, `[::1]` of `[::1]:80`.
    static func name(ofHost host: String) -> String {
        var h = Substring(host.trimmingBlanks())
        if h.hasPrefix("[") {
            if let close = h.firstIndex(of: "]") { h = h[...close] }
        } else if let colon = h.lastIndex(of: ":"), h.firstIndex(of: ":") == colon {
            h = h[..<colon]
        }
        return normalized(String(h))
    }

    static func normalized(_ name: String) -> String {
        var n = name.lowercased()
        while n.hasSuffix(".") { n.removeLast() }
        return n
    }

    /// An IPv4 dotted quad (`127.0.0.1`) or a bracketed IPv6 address (`[::1]`).
    static func isIPLiteral(_ name: String) -> Bool {
        if name.hasPrefix("[") && name.hasSuffix("]") && name.count > 2 {
            return name.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { p in !p.isEmpty && p.count <= 3 && p.allSatisfy(\.isASCIIDigit) && Int(p)! <= 255 }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension String {
    fileprivate func trimmingBlanks() -> Substring {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return s
    }
}
