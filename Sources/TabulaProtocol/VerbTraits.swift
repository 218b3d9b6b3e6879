/// How a verb touches the server, from the Verb table.
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
    /// A write whose cost grows with a whole list (BANDS re-sections every item): the server
    /// runs it on a copy of the state, outside the lock, and swaps the result in.
    public var onCopy: Bool

    /// Makes traits.
    public init(_ access: Access, cacheable: Bool = false, permission: Permission, onCopy: Bool = false) {
        self.access = access
        self.cacheable = cacheable
        self.permission = permission
        self.onCopy = onCopy
    }
}
