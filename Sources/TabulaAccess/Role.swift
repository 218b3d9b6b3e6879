import TabulaProtocol

/// What a user may do: each role includes the ones below it.
public enum Role: String, Sendable, CaseIterable, Equatable {
    /// LS, SHOW, CD, PWD, WATCH, UNWATCH, COMPLETE, FILTER, FORMAT, HELP, PING, QUIT, WHOAMI.
    case read
    /// Read, and SELECT, ADD, SET, RM, MV, FAV, ORDER.
    case write
    /// Everything, including BANDS with arguments, STATS and CLIENTS.
    case admin

    /// The highest permission the role holds.
    public var permission: Permission {
        switch self {
        case .read: return .read
        case .write: return .write
        case .admin: return .admin
        }
    }

    /// Whether a verb needing `p` is allowed.
    public func allows(_ p: Permission) -> Bool { p <= permission }
}
