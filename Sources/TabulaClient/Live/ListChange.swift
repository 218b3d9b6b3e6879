/// What one revision changed in a `ListReplica`, as a diffable data source applies it: the
/// ids (entry paths) inserted, deleted, moved and updated, with their index paths (deleted
/// and moved-from ones before the change, inserted and moved-to ones after it).
public struct ListChange: Sendable, Equatable {
    public var rev: UInt64
    public var inserted: [ListReplica.Index] = []
    public var insertedIDs: [String] = []
    public var deleted: [ListReplica.Index] = []
    public var deletedIDs: [String] = []
    public var moved: [(from: ListReplica.Index, to: ListReplica.Index)] = []
    public var movedIDs: [String] = []
    /// Rows whose content changed where they stand (`reconfigureItems`).
    public var updated: [ListReplica.Index] = []
    public var updatedIDs: [String] = []
    /// Everything was replaced (a snapshot): reload.
    public var reset = false

    public init(rev: UInt64, deleted: [ListReplica.Index] = [], deletedIDs: [String] = [], reset: Bool = false) {
        self.rev = rev
        self.deleted = deleted
        self.deletedIDs = deletedIDs
        self.reset = reset
    }

    /// The change of one row that stood at `from` and stands at `to` (nil: none).
    init(rev: UInt64, path: String, from: ListReplica.Index?, to: ListReplica.Index?) {
        self.rev = rev
        switch (from, to) {
        case (let f?, let t?) where f == t:
            updated = [t]
            updatedIDs = [path]
        case (let f?, let t?):
            moved = [(f, t)]
            movedIDs = [path]
        case (let f?, nil):
            deleted = [f]
            deletedIDs = [path]
        case (nil, let t?):
            inserted = [t]
            insertedIDs = [path]
        case (nil, nil): break
        }
    }

    public static func == (a: ListChange, b: ListChange) -> Bool {
        a.rev == b.rev && a.inserted == b.inserted && a.insertedIDs == b.insertedIDs && a.deleted == b.deleted
            && a.deletedIDs == b.deletedIDs
            && a.moved.map(\.from) == b.moved.map(\.from) && a.moved.map(\.to) == b.moved.map(\.to)
            && a.movedIDs == b.movedIDs
            && a.updated == b.updated && a.updatedIDs == b.updatedIDs && a.reset == b.reset
    }
}
