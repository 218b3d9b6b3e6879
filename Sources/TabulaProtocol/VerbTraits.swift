/// How a verb's requests are classified: the one place that decides it (see `Verb.spec`).
public struct VerbTraits: Sendable, Equatable {
    /// What of the server's state a request reads or changes.
    public enum Access: Sendable, Equatable {
        /// Only the connection itself (PING, HELP, QUIT, FORMAT): no lock.
        case connection
        /// The connection's session (path, filter, watches), reading the shared state.
        case session
        /// Reads the shared state.
        case read
        /// Changes the shared state: a revision, an event, and with a durable store a commit.
        case write
    }

    /// Where a request runs, beyond what its access decides.
    public enum Runner: Sendable, Equatable {
        /// On the I/O loop that read it, holding the lock its access needs; a write to a
        /// durable store, or one run on a copy, goes to the engine.
        case byAccess
        /// Always on the engine thread (SYNC, which may wait for the engine's next turns).
        case engine
        /// On the authenticator thread (AUTH, whose slow hash must not hold up a loop).
        case authenticator
    }

    /// What it touches.
    public var access: Access
    /// Whether its reply depends on nothing but the state, the session and who asks, so that
    /// a reply computed at one revision may be handed out again at that revision.
    public var cacheable: Bool
    /// The permission it needs.
    public var permission: Permission
    /// A write whose cost grows with a whole list (BANDS re-sections every item): the server
    /// runs it on a copy of the state, outside the lock, and swaps the result in.
    public var onCopy: Bool
    /// Where it runs.
    public var runner: Runner
    /// It reads what is published (the history, the watches, the counters): after a change
    /// of the same run or turn, which is published when it ends, it waits for the next one.
    public var readsPublished: Bool
    /// It reads the model, so a node whose model cannot be trusted (it must reload) refuses it.
    public var readsModel: Bool
    /// It is taken before a login on a server with users.
    public var beforeLogin: Bool
    /// It is taken on a RESP2 connection in subscribe mode.
    public var whileSubscribed: Bool
    /// It means something as an HTTP request, which stands alone (`POST /api/VERB`): not a
    /// verb that changes only the connection's own state.
    public var overHTTP: Bool

    /// Makes traits; what is not said follows from `access`.
    public init(_ access: Access, cacheable: Bool = false, permission: Permission, onCopy: Bool = false, runner: Runner = .byAccess,
                readsPublished: Bool = false, readsModel: Bool? = nil, beforeLogin: Bool = false, whileSubscribed: Bool = false, overHTTP: Bool? = nil) {
        self.access = access
        self.cacheable = cacheable
        self.permission = permission
        self.onCopy = onCopy
        self.runner = runner
        self.readsPublished = readsPublished
        self.readsModel = readsModel ?? (access == .read || access == .write)
        self.beforeLogin = beforeLogin
        self.whileSubscribed = whileSubscribed
        self.overHTTP = overHTTP ?? (access == .read || access == .write)
    }
}
