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
    /// It reads JSON (or RESP3's maps): listed rows then carry their entry's `rev`, which
    /// text rows leave out (and text readers never pay for).
    public var wantsRevisions = false

    /// Whether grants limit what this viewer may know of.
    public var isRestricted: Bool { grants.map { !$0.isUnrestricted } ?? false }

    /// Whether this viewer may know that `path` exists: the one rule every answer built from
    /// the model follows (listings, counts, paging hints, did-you-mean, completion, bare
    /// names). True for a covered path and for one that leads to an allowed prefix.
    public func sees(_ path: String) -> Bool { grants?.shows(path) ?? true }

    /// Whether this viewer may read `path` and everything under it.
    public func reaches(_ path: String) -> Bool { grants?.covers(path) ?? true }

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
