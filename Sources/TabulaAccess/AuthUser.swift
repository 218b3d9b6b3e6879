import TabulaModel

/// Who a connection acts as once authenticated: a user of the users file as loaded.
public struct AuthUser: Sendable, Hashable {
    public let name: String
    public let role: Role
    public let grants: Grants
    /// Which load of the users file this came from: a reload makes every cached answer for
    /// the old rights unusable (cache keys hold it).
    public let generation: Int

    public init(name: String, role: Role, grants: Grants, generation: Int) {
        self.name = name
        self.role = role
        self.grants = grants
        self.generation = generation
    }

    /// `ci write allow=/items`: what WHOAMI and AUTH say.
    public var description: String { "\(name) \(role.rawValue) \(grants.description)" }
}
