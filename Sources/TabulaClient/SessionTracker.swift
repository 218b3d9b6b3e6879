import TabulaProtocol

/// What the client must remember to rebuild its server session after a reconnect: current
/// path, filter, format and watches, learnt from the replies to its own requests.
public struct SessionTracker: Sendable, Equatable {
    /// The current path, as the server last confirmed it.
    public private(set) var cwd = "/"
    /// Whether FILTER favorites is on.
    public private(set) var favoritesOnly = false
    /// Whether FORMAT json is on.
    public private(set) var json = false
    /// Watched prefixes, in the order they were added.
    public private(set) var watches: [String] = []

    /// A fresh session.
    public init() {}

    /// Learns from a request and its successful reply.
    public mutating func observe(request: String, reply: ServerReply) {
        guard reply.isOK, case .success(let r)? = RequestParser.parse(Array(request.utf8)) else { return }
        let message = SessionTracker.message(of: reply)
        switch r.command {
        case .cd: cwd = message
        case .pwd: cwd = message
        case .filter(let f?): favoritesOnly = f == .favorites
        case .format(let f?): json = f == .json
        case .watch:
            if let p = message.split(separator: " ").dropFirst().first.map(String.init), !watches.contains(p) { watches.append(p) }
        case .unwatch(let p):
            if let p {
                let abs = p.hasPrefix("/") ? p : (cwd == "/" ? "/" : cwd + "/") + p
                watches.removeAll { $0 == abs || $0 == p }
            } else {
                watches.removeAll()
            }
        default: break
        }
    }

    /// The text after `OK` (and any tag) of a text reply, or the `message` of a JSON one.
    public static func message(of reply: ServerReply) -> String {
        if reply.final.hasPrefix("{"), let v = JSONParser.parse(reply.final) { return v["message"]?.stringValue ?? "" }
        var words = reply.final.split(separator: " ", omittingEmptySubsequences: false).dropFirst()
        if words.first?.hasPrefix("#") == true { words = words.dropFirst() }
        return words.joined(separator: " ")
    }

    /// The requests that rebuild this session on a new connection, resuming watches after `revision`.
    public func restoreRequests(after revision: UInt64) -> [String] {
        var out: [String] = []
        if json { out.append("FORMAT json") }
        if cwd != "/" { out.append("CD \(Quoting.quote(cwd))") }
        if favoritesOnly { out.append("FILTER favorites") }
        for w in watches { out.append("WATCH \(Quoting.quote(w)) FROM \(revision)") }
        return out
    }

    /// The revision a WATCH reply names ("watching /items at rev 42").
    public static func watchRevision(_ reply: ServerReply) -> UInt64? {
        let m = message(of: reply)
        guard let r = m.range(of: " at rev ") else { return nil }
        return UInt64(m[r.upperBound...].prefix { $0.isNumber })
    }
}
