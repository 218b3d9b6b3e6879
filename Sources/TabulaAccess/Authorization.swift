import TabulaModel
import TabulaProtocol

/// The access rules, as pure functions: what a user's role and grants allow (what a
/// connection may run before it authenticates is its verb's `beforeLogin` trait).
public enum Authorization {
    /// The reply to anything else before AUTH.
    public static let authenticationRequired = TabulaError(.noAuth, "authentication required; AUTH name secret")

    /// Why `user` may not run `command`, or nil. `canonical` gives the absolute path the model
    /// would resolve a typed path to (so that `/ITEMS/./7` is checked as `/items/7`).
    public static func refusal(_ command: Command, user: AuthUser, canonical: (String?) -> String) -> TabulaError? {
        let needed = command.traits.permission
        if !user.role.allows(needed) {
            return TabulaError(
                .noPerm,
                "\(user.name) (\(user.role.rawValue)) may not use \(command.verb.rawValue): it needs the \(needed == .admin ? "admin" : "write") role"
            )
        }
        guard !user.grants.isUnrestricted else { return nil }
        for (typed, how) in command.touches {
            let path = canonical(typed)
            let g = user.grants
            switch how {
            case .read where !g.covers(path), .enter where !g.shows(path):
                return TabulaError(.noPerm, "\(user.name) (\(user.role.rawValue)) may not read \(path)")
            case .change where !g.covers(path):
                return TabulaError(.noPerm, "\(user.name) (\(user.role.rawValue)) may not change \(path)")
            case .watch where !g.shows(path):
                // A prefix that leads to what the user may read (`/` for a user allowed /menu
                // and /orders) is watched as LS lists it: only the events it may read are sent.
                let under = g.allow.isEmpty ? "" : "; watch under \(g.allow.joined(separator: " or "))"
                return TabulaError(.noPerm, "\(user.name) (\(user.role.rawValue)) may not watch \(path)\(under)")
            default:
                continue
            }
        }
        return nil
    }
}
