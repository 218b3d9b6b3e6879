import Synchronization
import TabulaAccess

/// The users the server knows (from `--users FILE`), replaced whole on a reload.
final class UsersDirectory: Sendable {
    private struct Loaded {
        var users: [String: UserEntry]
        var generation: Int
    }

    private let loaded: Mutex<Loaded>

    init(_ users: [String: UserEntry]) {
        loaded = Mutex(Loaded(users: users, generation: 1))
    }

    /// The load now in use.
    var generation: Int { loaded.withLock { $0.generation } }

    /// The user named `name` as now loaded, with the load's generation.
    func entry(_ name: String) -> (UserEntry, Int)? {
        loaded.withLock { l in l.users[name].map { ($0, l.generation) } }
    }

    /// Replaces every user; returns the new generation.
    func replace(_ users: [String: UserEntry]) -> Int {
        loaded.withLock { l in
            l.users = users
            l.generation += 1
            return l.generation
        }
    }

    /// What a connection authenticated as `old` is now: the user as reloaded, or nil when
    /// the user is gone.
    func current(_ old: AuthUser) -> AuthUser? {
        guard let (e, generation) = entry(old.name) else { return nil }
        return AuthUser(name: e.name, role: e.role, grants: e.grants, generation: generation)
    }
}
