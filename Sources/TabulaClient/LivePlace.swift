/// What the live view keeps and shows for a path: the list it keeps a copy of (watched with
/// a snapshot), and within it one price section, or one entry opened as its detail. Pure.
public struct LivePlace: Sendable, Equatable {
    /// The list kept (`/items` for a price section or an item).
    public var list: String
    /// Only this section of it (`/items/cheap-items`).
    public var section: String?
    /// This entry of it, opened (a setting's options, a catalog leaf, an item's fields).
    public var entry: String?

    public init(list: String, section: String? = nil, entry: String? = nil) {
        self.list = list
        self.section = section
        self.entry = entry
    }

    /// The place of `path` as far as its form tells: an item's events are under `/items`, not
    /// under its price section's path, so a section or an item is kept as part of `/items`;
    /// a setting is an entry of `/settings` (its options are its value). Anything else is
    /// taken for a list until the server says it is not one (`entry(of:)`).
    public static func of(_ path: String) -> LivePlace {
        let path = normalized(path)
        let parent = LivePlace.parent(path)
        if parent == "/items", let name = path.split(separator: "/").last {
            return name.allSatisfy(\.isNumber)
                ? LivePlace(list: parent, entry: path) : LivePlace(list: parent, section: String(name))
        }
        if parent == "/settings" { return LivePlace(list: parent, entry: path) }
        return LivePlace(list: path)
    }

    /// `path` as an entry of its parent list (the server said it is no list: a catalog leaf,
    /// an order, a menu entry).
    public static func entry(of path: String) -> LivePlace { LivePlace(list: parent(path), entry: normalized(path)) }

    /// `path` without a trailing slash (`/settings/my-int/` names `/settings/my-int`).
    public static func normalized(_ path: String) -> String {
        let parts = path.split(separator: "/")
        return parts.isEmpty ? "/" : "/" + parts.joined(separator: "/")
    }

    /// `/a/b` → `/a`; `/a` → `/`.
    public static func parent(_ path: String) -> String {
        let parts = path.split(separator: "/").dropLast()
        return parts.isEmpty ? "/" : "/" + parts.joined(separator: "/")
    }
}
