import TabulaProtocol

/// One node of the drill-down catalog tree. Its children are its list's
/// (`CatalogList.children`), not its own: a node is copied whole, and a branch may have
/// 100,000 of them.
public struct CatalogNode: Sendable, Equatable {
    /// Makes one; `key` orders it among its siblings (stored as its `position`).
    public init(id: Int, parent: Int, slug: String, title: String, view: CatalogView, key: Int = 0) {
        self.id = id
        self.parent = parent
        self.slug = slug
        self.title = title
        self.view = view
        self.key = key
    }

    /// Stable id (0 is the root).
    public var id: Int
    /// Parent id (the root's is itself).
    public var parent: Int
    /// Path name among its siblings.
    public var slug: String
    /// Shown title.
    public var title: String
    /// What opening it shows.
    public var view: CatalogView
    /// Its order among its siblings: larger than every earlier sibling's. A removal leaves a
    /// gap, so that no sibling is stored again.
    public var key: Int
    /// Its place in its parent's children (`OrderedList`), where its position is read in
    /// O(log n); set when it is linked.
    var handle: ListHandle = -1
}
