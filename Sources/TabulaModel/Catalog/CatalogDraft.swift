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
