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

    /// What it touches.
    public var access: Access
    /// Whether its reply depends on nothing but the state, the session and who asks, so that
    /// a reply computed at one revision may be handed out again at that revision.
    public var cacheable: Bool
    /// The permission it needs.
    public var permission: Permission
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
    public init(
        _ access: Access, cacheable: Bool = false, permission: Permission, readsModel: Bool? = nil,
        beforeLogin: Bool = false,
        whileSubscribed: Bool = false, overHTTP: Bool? = nil
    ) {
        self.access = access
        self.cacheable = cacheable
        self.permission = permission
        self.readsModel = readsModel ?? (access == .read || access == .write)
        self.beforeLogin = beforeLogin
        self.whileSubscribed = whileSubscribed
        self.overHTTP = overHTTP ?? (access == .read || access == .write)
    }
}
