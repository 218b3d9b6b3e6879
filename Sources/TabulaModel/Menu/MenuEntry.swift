/// One entry of the static menu.
public struct MenuEntry: Sendable, Equatable {
    /// Makes one.
    public init(slug: String, title: String) {
        self.slug = slug
        self.title = title
    }

    /// Path name.
    public var slug: String
    /// Shown title, e.g. "Margherita".
    public var title: String
}
