import TabulaProtocol

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

/// A catalog subtree before it is added: what imports produce.
public struct CatalogDraft: Sendable, Equatable {
    /// Title.
    public var title: String
    /// View; `.branch` when it has children.
    public var view: CatalogView
    /// Children.
    public var children: [CatalogDraft]

    /// Makes a draft.
    public init(title: String, view: CatalogView, children: [CatalogDraft] = []) {
        self.title = title
        self.view = view
        self.children = children
    }

    /// The `ADD` argument list (after the parent path) that creates this node alone.
    public var addArguments: [String] {
        switch view {
        case .branch: return [title]
        case .tabs(let names): return [title, "tabs"] + names
        case .image(let name): return [title, "image", name]
        case .text(let text): return [title, "text", text]
        }
    }
}

