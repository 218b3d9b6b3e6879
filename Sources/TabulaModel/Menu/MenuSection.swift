import TabulaProtocol

/// One section of the menu, e.g. "Pizza".
public struct MenuSection: Sendable, Equatable {
    /// Makes one.
    public init(slug: String, title: String, entries: [MenuEntry]) {
        self.slug = slug
        self.title = title
        self.entries = entries
    }

    /// Path name.
    public var slug: String
    /// Shown title.
    public var title: String
    /// Entries in order.
    public var entries: [MenuEntry]
}
