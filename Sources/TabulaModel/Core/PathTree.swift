/// The paths of one nested list that hold a revision (`ChangeRevisions`), as a tree: each
/// path among its parent's children, the parents that hold none included. A removal then
/// finds what was stamped under an entry by walking the entry's subtree, not by reading every
/// path the list holds. Bucketed twice (by parent, and each parent's children in turn), so
/// that a copy which one change then changes copies a bucket of each, however wide the
/// parent. Pure.
struct PathTree: Sendable {
    private var children = BucketedDictionary<String, BucketedDictionary<String, Void>>()  // sets of paths

    /// Puts `path` in the tree, with its ancestors below `top` (the list's own path):
    /// O(depth) for a new path, one probe for one already in.
    mutating func insert(_ path: String, under top: String) {
        var p = path
        while p.utf8.count > top.utf8.count {
            let parent = ModelPath.parent(p)
            guard children[parent]?[p] == nil else { return }
            children[parent, default: BucketedDictionary()][p] = ()
            guard parent.utf8.count > top.utf8.count else { return }
            p = parent
        }
    }

    /// Takes `path` and everything under it out of the tree; returns what was under it.
    mutating func remove(_ path: String) -> [String] {
        var gone: [String] = []
        var stack = [path]
        while let p = stack.popLast() {
            guard let kids = children[p]?.keys else { continue }
            children[p] = nil
            gone.append(contentsOf: kids)
            stack.append(contentsOf: kids)
        }
        let parent = ModelPath.parent(path)
        children[parent]?[path] = nil
        if children[parent]?.count == 0 { children[parent] = nil }
        return gone
    }
}
