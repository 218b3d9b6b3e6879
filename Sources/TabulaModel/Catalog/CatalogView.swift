/// What a catalog node shows when it is opened.
public enum CatalogView: Sendable, Equatable {
    /// A node with children, drilled into.
    case branch
    /// A leaf showing named tabs ("View One", "View Two").
    case tabs([String])
    /// A leaf showing an image by name.
    case image(String)
    /// A leaf showing plain text.
    case text(String)

    /// `branch`, `tabs`, `image` or `text`.
    public var kind: String {
        switch self {
        case .branch: return "branch"
        case .tabs: return "tabs"
        case .image: return "image"
        case .text: return "text"
        }
    }
}
