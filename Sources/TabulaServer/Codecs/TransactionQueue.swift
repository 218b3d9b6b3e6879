import TabulaProtocol

/// What a connection queued since `MULTI`: the requests EXEC runs as one (see
/// `Engine.processTransaction`), or why EXEC will discard them. Only writes and SHOW are
/// taken (what changes or reads one entry); at most `most` of them, of at most `mostBytes`
/// as sent. The line protocol and RESP keep theirs with `step`, and differ only in how they
/// answer each step. Its bytes count toward the input the server holds for the connection
/// (`Connection.heldInput`), and one open for `--stall-timeout` closes its connection.
struct TransactionQueue: Sendable {
    private(set) var requests: [Request] = []
    /// Why EXEC discards the transaction (a request refused while queued), or nil.
    private(set) var discarded: String?
    /// The bytes its requests were sent as.
    private(set) var bytes = 0
    /// When MULTI began it (`Histogram.now()`, nanoseconds): a plain integer, so that the
    /// queue keeps a fixed layout and `transaction == nil`, asked of every line, costs a
    /// compare (a clock's `Instant`, resilient, made it a copy through value witnesses).
    let begun = Histogram.now()

    /// Most requests one transaction holds.
    static let most = 128
    /// Most bytes (as sent) of the requests one transaction holds.
    static let mostBytes = 1 << 20

    /// What a request did to a connection's transaction.
    enum Step: Sendable, Equatable {
        /// MULTI: a transaction began.
        case begun
        /// Queued, the `n`th.
        case queued(Int)
        /// Refused (answered with this error); if a transaction is open, EXEC will discard it.
        case refused(TabulaError)
        /// EXEC: run these as one.
        case run([Request])
        /// EXEC of a transaction discarded because of this earlier refusal: nothing runs.
        case aborted(String)
        /// DISCARD: dropped.
        case dropped
    }

    /// Whether a request of `verb` is a transaction's own (MULTI, EXEC, DISCARD): outside a
    /// transaction only those go through `step`, so other requests pay nothing for it.
    static func isOwn(_ verb: Verb?) -> Bool { verb == .multi || verb == .exec || verb == .discard }

    /// The step `parsed` (a request, or why its line was refused) takes with `open` (the
    /// connection's transaction, nil outside one); nil when it is no transaction's business
    /// (outside a transaction, anything but MULTI, EXEC and DISCARD: run as usual).
    static func step(_ open: inout TransactionQueue?, _ parsed: Result<Request, TabulaError>, bytes: Int = 0) -> Step? {
        let verb = try? parsed.get().command.verb
        guard var t = open else {
            switch verb {
            case .multi?:
                open = TransactionQueue()
                return .begun
            case .exec?, .discard?: return .refused(TabulaError(.invalid, "\(verb!.rawValue) without MULTI"))
            default: return nil
            }
        }
        switch parsed {
        case .failure(let e):
            t.discard(because: e.message)
            open = t
            return .refused(e)
        case .success(let r):
            switch r.command {
            case .exec:
                open = nil
                if let why = t.discarded { return .aborted(why) }
                return .run(t.requests)
            case .discard:
                open = nil
                return .dropped
            case .multi: return .refused(TabulaError(.invalid, "MULTI calls can not be nested"))
            default:
                let why = t.add(r, bytes: bytes)
                open = t
                return why.map { .refused(TabulaError(.invalid, $0)) } ?? .queued(t.requests.count)
            }
        }
    }

    /// Queues `r`, sent as `size` bytes, or says why it is refused (and the transaction with it).
    mutating func add(_ r: Request, bytes size: Int) -> String? {
        let why: String?
        if requests.count >= TransactionQueue.most {
            why = "a transaction holds at most \(TransactionQueue.most) commands; EXEC these and begin another"
        } else if bytes + size > TransactionQueue.mostBytes {
            why =
                "a transaction holds at most \(TransactionQueue.mostBytes) bytes of requests; EXEC these and begin another"
        } else if r.traits.access != .write && r.command.verb != .show {
            why =
                "\(r.command.verb.rawValue) cannot be queued: a transaction takes writes and SHOW (read lists before MULTI or after EXEC)"
        } else {
            why = nil
        }
        if let why {
            discard(because: why)
            return why
        }
        requests.append(r)
        bytes += size
        return nil
    }

    mutating func discard(because why: String) {
        if discarded == nil { discarded = why }
    }
}
