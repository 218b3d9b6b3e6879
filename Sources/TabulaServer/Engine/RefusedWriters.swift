import TabulaProtocol

/// Writers whose own changes the store refused lately (a full disk, `--max-size`), each a
/// user, or a connection where there are no users (`key`): their
/// next groups run after everyone else's, each in a turn of its own and `perRound` at most
/// before the engine looks at what arrived meanwhile, so that a refused commit costs one
/// commit of the writer that caused it, not the turn it shared with others and its retries
/// in halves. Kept by the engine's one thread; at most `most` connections remembered, each
/// for `seconds`. Pure: times are passed in.
struct RefusedWriters {
    static let seconds = 2.0
    static let most = 4_096
    static let perRound = 8
    /// Whose refusals a group counts as.
    enum Writer: Hashable {
        case user(String)
        case connection(ConnectionID)
    }

    private var refusedAt: [Writer: Double] = [:]

    /// Whose refusals a group of connection `c` with `session` counts as: its user's (so that
    /// a writer cannot shed its past by reconnecting), else its connection's.
    static func key(_ c: ConnectionID, _ session: Session) -> Writer {
        session.user.map { .user($0.name) } ?? .connection(c)
    }

    /// `c`'s change was refused at `now`.
    mutating func note(_ c: Writer, at now: Double) {
        if refusedAt.count >= Self.most { refusedAt = refusedAt.filter { now - $0.value < Self.seconds } }
        if refusedAt.count < Self.most { refusedAt[c] = now }
    }

    /// Whether `c` had a change refused in the last `seconds`.
    func isSuspect(_ c: Writer, at now: Double) -> Bool {
        guard let t = refusedAt[c] else { return false }
        return now - t < Self.seconds
    }

    /// `batch` in the order to run it: every other input first, in order, then the groups
    /// of connections refused lately, in order (nothing is reordered when the batch asks the
    /// engine to stop, or none is suspect).
    /// Writers refused longer ago than `seconds` are forgotten first, so that a batch after
    /// the last refusal has faded costs one look at an empty table.
    mutating func ordered(_ batch: [EngineInput], at now: Double) -> (first: [EngineInput], later: [EngineInput]) {
        if !refusedAt.isEmpty { refusedAt = refusedAt.filter { now - $0.value < Self.seconds } }
        guard !refusedAt.isEmpty else { return (batch, []) }
        var first: [EngineInput] = []
        var later: [EngineInput] = []
        for input in batch {
            switch input {
            case .group(let c, _, let session) where isSuspect(Self.key(c, session), at: now): later.append(input)
            case .shutdown: return (batch, [])
            default: first.append(input)
            }
        }
        return (first, later)
    }
}
