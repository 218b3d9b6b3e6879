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

    /// Learns from a request and its reply: what a successful one changed, and from any
    /// reply the notice that the current path was removed by another client.
    public mutating func observe(request: String, reply: ServerReply) {
        let said = reply.reply.error?.message ?? reply.reply.message
        if let moved = SessionTracker.movedTo(said) { cwd = moved }
        guard reply.isOK, case .success(let r)? = RequestParser.parse(Array(request.utf8)) else { return }
        let message = reply.reply.message
        switch r.command {
        case .cd, .pwd: cwd = SessionTracker.withoutNotice(message)
        case .filter(let f?): favoritesOnly = f == .favorites
        case .format(let f?): json = f == .json
        case .watch:
            if let p = WatchAck(message: message)?.prefix, !watches.contains(p) { watches.append(p) }
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

    static let notice = " (your current path "
    static let noticeEnd = "; you are now at "

    /// Where the server's "current path removed" notice says the session now is.
    static func movedTo(_ message: String) -> String? {
        guard let r = message.range(of: noticeEnd, options: .backwards), message.hasSuffix(")") else { return nil }
        return String(message[r.upperBound...].dropLast())
    }

    /// A CD or PWD reply's path, without a notice after it.
    static func withoutNotice(_ message: String) -> String {
        message.range(of: notice).map { String(message[..<$0.lowerBound]) } ?? message
    }

    /// The requests that rebuild this session on a new connection, resuming watches after
    /// `revision` (nil: watching from now, on a server whose history is another).
    public func restoreRequests(after revision: UInt64?) -> [String] {
        var out: [String] = []
        if json { out.append("FORMAT json") }
        if cwd != "/" { out.append("CD \(Quoting.quote(cwd))") }
        if favoritesOnly { out.append("FILTER favorites") }
        for w in watches { out.append("WATCH \(Quoting.quote(w))" + (revision.map { " FROM \($0)" } ?? "")) }
        return out
    }
}
