import TabulaProtocol

/// Which paths a user may reach: `allow` prefixes (none: every path) with `deny` prefixes cut
/// out of them. Deny wins. All prefixes are absolute and normalised (`/items`, never
/// `/items/` or `items`).
public struct Grants: Sendable, Hashable {
    public let allow: [String]
    public let deny: [String]

    public init(allow: [String] = [], deny: [String] = []) {
        self.allow = allow
        self.deny = deny
    }

    /// No prefix given: every path.
    public var isUnrestricted: Bool { allow.isEmpty && deny.isEmpty }

    /// Whether `path` and everything under it is reachable: under an allowed prefix (when
    /// any is given) and under no denied one. Reads, writes and watches need this.
    public func covers(_ path: String) -> Bool {
        if deny.contains(where: { ModelPath.isUnder(path, prefix: $0) }) { return false }
        return allow.isEmpty || allow.contains { ModelPath.isUnder(path, prefix: $0) }
    }

    /// Whether `path` may be shown in a listing or entered: it is covered, or it leads to an
    /// allowed prefix (so that a user allowed `/catalog/books` sees `/` and `/catalog` with
    /// only that branch in them).
    public func shows(_ path: String) -> Bool {
        if covers(path) { return true }
        if deny.contains(where: { ModelPath.isUnder(path, prefix: $0) }) { return false }
        return allow.contains { $0 != path && ModelPath.isUnder($0, prefix: path) }
    }

    /// Whether an event at `path` may reach a watcher holding these grants.
    public func receives(_ path: String) -> Bool { covers(path) }

    /// Whether everything under `list` is reachable, so that a position counted in it is one
    /// in this user's view too: `list` is covered and no deny prefix lies under it.
    public func seesAll(of list: String) -> Bool {
        covers(list) && !deny.contains { ModelPath.isUnder($0, prefix: list) }
    }

    /// Whether a watcher with these grants is sent `e`'s positions: they count in the list
    /// that holds its entry, which these grants must show whole (else `Event.restricted`).
    public func seesPositions(of e: Event) -> Bool {
        guard e.at != nil || e.from != nil || e.parent != nil || e.summaryLine.begins(with: UInt8(ascii: "#")) else {
            return true
        }
        return seesWhole(listOf: e.path)
    }

    /// Whether these grants show every entry of the list that holds the entry at `path`, so
    /// that a position counted in the whole list is one in this view too.
    public func seesWhole(listOf path: String) -> Bool {
        // An order of a denied menu entry is hidden from the order list: every deny counts.
        if !deny.isEmpty && path.hasPrefix("/orders/") { return false }
        return seesAll(of: ModelPath.parent(path))
    }

    /// Whether a deny prefix covers `path`.
    public func denies(_ path: String) -> Bool { deny.contains { ModelPath.isUnder(path, prefix: $0) } }

    /// The grants as the users file and WHOAMI write them: `allow=/items deny=/items/7`, or
    /// `all paths`.
    public var description: String {
        if isUnrestricted { return "all paths" }
        return (allow.map { "allow=\($0)" } + deny.map { "deny=\($0)" }).joined(separator: " ")
    }

    /// A prefix as given (relative to `/`, with or without a trailing slash), normalised;
    /// nil when it is not a path.
    public static func normalise(_ prefix: String) -> String? {
        guard prefix.hasPrefix("/") else { return nil }
        return ModelPath.join(ModelPath.segments(prefix, cwd: "/"))
    }
}
