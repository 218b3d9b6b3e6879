import TabulaProtocol

/// One node of the drill-down catalog tree.
public struct CatalogNode: Sendable, Equatable {
    /// Makes one.
    public init(id: Int, parent: Int, slug: String, title: String, view: CatalogView, children: [Int]) {
        self.id = id
        self.parent = parent
        self.slug = slug
        self.title = title
        self.view = view
        self.children = children
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
    /// Children in order (branches only).
    public var children: [Int]
}
