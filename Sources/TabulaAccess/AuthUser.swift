import TabulaModel

/// Who a connection acts as once authenticated: a user of the users file as loaded. A class:
/// every session carries one and is copied often, so it costs one reference.
public final class AuthUser: Sendable, Hashable {
    public let name: String
    public let role: Role
    public let grants: Grants
    /// Which load of the users file this came from: a reload makes every cached answer for
    /// the old rights unusable (cache keys hold it).
    public let generation: Int
    /// The hash of the secret it logged in with: a reload that changes it ends the session.
    public let credential: PasswordHash?

    public init(name: String, role: Role, grants: Grants, generation: Int, credential: PasswordHash? = nil) {
        self.name = name
        self.role = role
        self.grants = grants
        self.generation = generation
        self.credential = credential
    }

    public static func == (a: AuthUser, b: AuthUser) -> Bool {
        a === b || (a.name == b.name && a.role == b.role && a.grants == b.grants && a.generation == b.generation)
    }

    public func hash(into h: inout Hasher) {
        h.combine(name)
        h.combine(generation)
    }

    /// `ci write allow=/items`: what WHOAMI and AUTH say.
    public var description: String { "\(name) \(role.rawValue) \(grants.description)" }
}
