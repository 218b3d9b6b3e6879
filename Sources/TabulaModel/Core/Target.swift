/// What a resolved path points at: `/`, or a place in one of the lists.
public enum Target: Sendable, Hashable {
    case root
    /// A place in the list at index `list` of `Model.lists`.
    case place(list: Int, Ref)
}

/// Who is looking: the per-connection view settings the model needs.
public struct Viewer: Sendable, Equatable {
    /// Current path, absolute.
    public var cwd: String
    /// Item filter.
    public var filter: ItemFilterSetting
    /// What this viewer may see (nil: everything): listings and completions leave out the
    /// rest.
    public var grants: Grants?

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
