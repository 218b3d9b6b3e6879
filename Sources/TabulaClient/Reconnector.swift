/// Getting back to the server after a lost connection: exponential back-off between
/// attempts, and a new connection that carries on the old session — current path, filter,
/// format, and every watch resumed from the last revision seen, so no event is lost.
public struct Reconnector: Sendable {
    /// Seconds to wait before the next attempt.
    public private(set) var delay: Double
    private let initial: Double
    private let maximum: Double

    /// Back-off from `initial` seconds, doubling, up to `maximum`.
    public init(initial: Double = 0.1, maximum: Double = 5) {
        self.initial = initial
        self.maximum = maximum
        delay = initial
    }

    /// An attempt failed: wait longer next time.
    public mutating func failed() { delay = min(delay * 2, maximum) }

    /// Connected again: the next loss starts from the shortest wait.
    public mutating func reset() { delay = initial }

    /// What resuming found.
    public struct Resumed {
        /// The new connection, its session rebuilt.
        public let connection: TabulaConnection
        /// The restoring requests the server refused, each with its reply.
        public let refused: [String]
        /// The server started a new history (its id changed): the watches were restarted from
        /// its current revision instead of resumed, since revisions of the old history mean
        /// nothing there. What was watched may have changed in between: LS to resync.
        public let wasReset: Bool
    }

    /// Connects and rebuilds `session` on the new connection, resuming its watches after
    /// `revision` of history `historyID` (from the previous connection's greeting), logging
    /// in first with `credentials` when given. A server
    /// with another history id is not resumed but restarted: see `Resumed.wasReset`.
    public static func resume(
        host: String, port: Int, credentials: Credentials? = nil, session: SessionTracker, after revision: UInt64,
        historyID: String, timeout: Double = 2
    ) throws -> Resumed {
        try resume(
            .tcp(host: host, port: port), credentials: credentials, session: session, after: revision,
            historyID: historyID, timeout: timeout)
    }

    /// The same at any endpoint.
    public static func resume(
        _ endpoint: Endpoint, credentials: Credentials? = nil, session: SessionTracker, after revision: UInt64,
        historyID: String, timeout: Double = 2
    ) throws -> Resumed {
        let c = try TabulaConnection(endpoint, timeout: timeout)
        if let credentials { try c.authenticate(credentials) }  // before anything is restored
        let reset = !historyID.isEmpty && c.historyID != historyID
        if !reset && revision > c.helloRevision && !session.watches.isEmpty {
            // Another node of a cluster may not have applied all we saw yet: wait for it
            // (SYNC), so the watches resume after `revision` with nothing repeated.
            let synced = try c.request("SYNC \(revision) TIMEOUT 5000", timeout: timeout + 5)
            guard synced.isOK else {
                throw ClientError.connectFailed(
                    "\(endpoint) has not caught up with revision \(revision): \(synced.final)")
            }
        }
        if !reset { c.resume(from: revision) }
        var refused: [String] = []
        for r in session.restoreRequests(after: reset ? nil : revision) {
            let reply = try c.request(r, timeout: timeout)
            if !reply.isOK { refused.append("\(r): \(reply.final)") }
        }
        return Resumed(connection: c, refused: refused, wasReset: reset)
    }
}
