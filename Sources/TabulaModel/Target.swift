/// What a resolved path points at.
public enum Target: Sendable, Equatable {
    case root
    case settings
    case setting(Int)
    case option(Int, Int)
    /// A catalog node by id; 0 is `/catalog` itself.
    case catalog(Int)
    case items
    /// A price section by index.
    case section(Int)
    /// An item by id.
    case item(Int)
    case menu
    case menuSection(Int)
    case menuEntry(Int, Int)
    case orders
    /// An order by id.
    case order(Int)

    /// Whether `LS` and `CD` treat it as a list.
    public var isList: Bool {
        switch self {
        case .option, .item, .menuEntry, .order: return false
        default: return true
        }
    }
}

/// Who is looking: the per-connection view settings the model needs.
public struct Viewer: Sendable, Equatable {
    /// Current path, absolute.
    public var cwd: String
    /// Item filter.
    public var filter: ItemFilterSetting

    /// A viewer at `/` seeing all items.
    public init(cwd: String = "/", filter: ItemFilterSetting = .all) {
        self.cwd = cwd
        self.filter = filter
    }
}

/// Per-connection item filter, as the model sees it.
public enum ItemFilterSetting: String, Sendable {
    case all, favorites
}
