// What the verb table says of a request beyond its traits, where it depends on the
// request's arguments: the paths it reaches (for grants) and whether it replays history.

/// How a request reaches a path.
public enum Touch: Sendable, Equatable {
    /// Reads it and what is under it (SHOW of a leaf).
    case read
    /// Lists or enters it: allowed for a path that leads to an allowed prefix.
    case enter
    /// Changes it.
    case change
    /// Watches what changes under it.
    case watch
}

extension Command {
    /// The paths a request reaches, as typed (nil: the current path), and how. ORDER reads
    /// its menu entry (the whole menu for a bare name, which could be any entry) and changes
    /// `/orders`.
    public var touches: [(path: String?, how: Touch)] {
        switch self {
        case .ls(let p, _, _), .show(let p), .cd(let p): return [(p, .enter)]
        case .select(let p, _), .add(let p, _), .set(let p, _), .rm(let p), .mv(let p, _), .fav(let p, _):
            return [(p, .change)]
        case .bands(let args) where !args.isEmpty: return [("/items", .change)]
        case .order(let p): return [(p.contains("/") ? p : "/menu", .read), ("/orders", .change)]
        case .watch(let p, _, _, _): return [(p ?? "/", .watch)]
        default: return []
        }
    }
}

extension Command {
    /// `WATCH … FROM` or `SNAPSHOT`: it replays the history (or sends rows) before its live events, so it starts an engine
    /// turn of its own (later groups' events would otherwise reach the new watch first).
    public var replays: Bool {
        if case .watch(_, let from, let snapshot, _) = self { return from != nil || snapshot }
        return false
    }
}
