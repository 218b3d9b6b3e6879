import Synchronization
import TabulaAccess

/// The users the server knows (from `--users FILE`), replaced whole on a reload, and the
/// decoy hash unknown names are checked against.
final class UsersDirectory: Sendable {
    private struct Loaded {
        var users: [String: UserEntry]
        var generation: Int
        var decoy: PasswordHash
    }

    private let loaded: Locked<Loaded>

    /// Every user as now loaded.
    var all: [String: UserEntry] { loaded.withLock { $0.users } }

    init(_ users: [String: UserEntry]) {
        loaded = Locked(
            Loaded(users: users, generation: 1, decoy: .decoy(iterations: UsersDirectory.commonIterations(users))))
    }

    /// The load now in use.
    var generation: Int { loaded.withLock { $0.generation } }

    /// The user named `name` as now loaded, with the load's generation.
    func entry(_ name: String) -> (UserEntry, Int)? {
        loaded.withLock { l in l.users[name].map { ($0, l.generation) } }
    }

    /// What `name`'s secret is checked against: its hash, or the decoy (same cost) when no
    /// such user is loaded.
    func check(_ name: String) -> (entry: UserEntry?, hash: PasswordHash, generation: Int) {
        loaded.withLock { l in (l.users[name], l.users[name]?.hash ?? l.decoy, l.generation) }
    }

    /// Replaces every user; returns the new generation.
    func replace(_ users: [String: UserEntry]) -> Int {
        let decoy = PasswordHash.decoy(iterations: UsersDirectory.commonIterations(users))
        return loaded.withLock { l in
            l.users = users
            l.generation += 1
            l.decoy = decoy
            return l.generation
        }
    }

    /// What a connection authenticated as `old` is now: the user as reloaded, or nil when
    /// the user is gone.
    func current(_ old: AuthUser) -> AuthUser? {
        guard let (e, generation) = entry(old.name) else { return nil }
        return AuthUser(name: e.name, role: e.role, grants: e.grants, generation: generation, credential: e.hash)
    }

    /// The iteration count most users' hashes have (the default for none): the decoy's.
    static func commonIterations(_ users: [String: UserEntry]) -> Int {
        var counts: [Int: Int] = [:]
        for u in users.values { counts[u.hash.iterations, default: 0] += 1 }
        return counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? PasswordHash.defaultIterations
    }

    /// Users whose hash has another iteration count than most: a wrong secret for them takes
    /// a time of its own, which tells their names apart from unknown ones.
    static func unusualIterations(_ users: [String: UserEntry]) -> [String] {
        let common = commonIterations(users)
        return users.values.filter { $0.hash.iterations != common }.map(\.name).sorted()
    }
}
