import TabulaProtocol

/// What a RESP connection queued since `MULTI`: the requests EXEC runs as one (see
/// `Engine.processTransaction`), or why EXEC will discard them. Only writes and SHOW are
/// taken (what changes or reads one entry); at most `most` of them. Pure.
struct TransactionQueue: Sendable {
    private(set) var requests: [Request] = []
    /// Why EXEC discards the transaction (a request refused while queued), or nil.
    private(set) var discarded: String?

    /// Most requests one transaction holds.
    static let most = 128

    /// Queues `r`, or says why it is refused (and the transaction with it).
    mutating func add(_ r: Request) -> String? {
        let why: String?
        if requests.count >= TransactionQueue.most {
            why = "a transaction holds at most \(TransactionQueue.most) commands; EXEC these and begin another"
        } else if r.traits.access != .write && r.command.verb != .show {
            why = "\(r.command.verb.rawValue) cannot be queued: a transaction takes writes and SHOW (read lists before MULTI or after EXEC)"
        } else {
            why = nil
        }
        if let why {
            discard(because: why)
            return why
        }
        requests.append(r)
        return nil
    }

    mutating func discard(because why: String) {
        if discarded == nil { discarded = why }
    }
}
