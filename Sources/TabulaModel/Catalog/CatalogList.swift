import TabulaProtocol

/// `/catalog` (seed 001): a drill-down tree whose branches list children and whose leaves
/// show one of three kinds of detail (tabs, an image, text).
public struct CatalogList: ListStore {
    public static let name = "catalog"
    /// Places: the list (node 0), a node (`a`: its id).
    static let node: UInt8 = 1

    /// Nodes by id; 0 is the root, `/catalog` itself. In buckets, as are the indexes below:
    /// a write after the model's committed copy copies the buckets it changes, not all.
    public internal(set) var nodes = BucketedDictionary<Int, CatalogNode>()
    /// Each branch's children in order, by branch id: a child's position, the child at a
    /// position, an insert and a removal cost O(log n), and a copy that one write then
    /// changes copies the chunks it touches, however wide the branch.
    var children = BucketedDictionary<Int, OrderedList>()
    var nextId = 1
    /// Every branch's children by slug: a lookup by name costs one probe, not a scan.
    var bySlug = BucketedDictionary<SiblingName, Int>()
    /// Every branch's children by title, lower-cased: siblings never share a title, checked
    /// in one probe.
    var byTitle = BucketedDictionary<SiblingName, Int>()
    /// Per branch and base slug, the suffix to try next for a title used again, so adding
    /// the same title many times does not probe `-2`, `-3`… from the start each time.
    var nextSuffix = BucketedDictionary<Int, [String: Int]>()

    public init() {
        nodes[0] = CatalogNode(id: 0, parent: 0, slug: "catalog", title: "Catalog", view: .branch)
    }

    public var recordsMutations = true

    static func id(_ ref: Ref) -> Int { ref.kind == 0 ? 0 : ref.a }
    static func ref(_ id: Int) -> Ref { id == 0 ? .top : Ref(node, id) }

    public func summary(seenBy viewer: Viewer) -> Row {
        let n = nodes[0].map { childCount($0, viewer: viewer) } ?? 0
        return Row(
            text: "catalog/  \(n) top-level \(plural(n, "node"))",
            json: .object([("name", .string("catalog")), ("count", .int(Int64(n)))]), path: RowPath("/", "catalog"))
    }

    public func isList(_ ref: Ref) -> Bool { nodes[CatalogList.id(ref)]?.view == .branch }

    public func child(of ref: Ref, named name: String) -> Ref? {
        guard let parent = nodes[CatalogList.id(ref)], parent.view == .branch else { return nil }
        return bySlug[SiblingName(parent.id, folded(name))].map { CatalogList.ref($0) }
    }

    public func path(of ref: Ref) -> String {
        var segs: [String] = []
        var n = CatalogList.id(ref)
        while n != 0, let node = nodes[n] {
            segs.append(node.slug)
            n = node.parent
        }
        return "/catalog" + segs.reversed().map { "/" + $0 }.joined()
    }

    public func childNames(of ref: Ref, limit: Int) -> [(name: String, isList: Bool)] {
        childIds(of: CatalogList.id(ref), from: 0, limit: limit).compactMap { nodes[$0] }.map {
            ($0.slug, $0.view == .branch)
        }
    }

    /// The ids of up to `limit` children of branch `id` from 0-based `position`, in order.
    func childIds(of id: Int, from position: Int = 0, limit: Int = .max) -> [Int] {
        guard let list = children[id] else { return [] }
        return list.page(from: position, limit: limit).map { list.id($0) }
    }

    /// How many children branch `id` has.
    func childTotal(_ id: Int) -> Int { children[id]?.count ?? 0 }

    /// The id of the child of branch `id` at 0-based `position`.
    func childId(of id: Int, at position: Int) -> Int? {
        guard let list = children[id], let h = list.handle(at: position) else { return nil }
        return list.id(h)
    }

    /// The 0-based position of `node` among its siblings.
    func position(of node: CatalogNode) -> Int? {
        guard node.handle >= 0, let list = children[node.parent] else { return nil }
        return list.position(node.handle)
    }

    /// The children of `node` that `viewer` sees, in order.
    func seenChildren(_ node: CatalogNode, viewer: Viewer) -> [CatalogNode] {
        let kids = childIds(of: node.id).compactMap { nodes[$0] }
        guard viewer.isRestricted else { return kids }
        let p = path(of: CatalogList.ref(node.id))
        return kids.filter { viewer.sees(p + "/" + $0.slug) }
    }

    /// How many children of `node` `viewer` sees.
    /// (O(prefixes) lookups for a viewer with grants: `ChildGrants`.)
    func childCount(_ node: CatalogNode, viewer: Viewer) -> Int {
        let total = childTotal(node.id)
        guard viewer.isRestricted, let grants = viewer.grants else { return total }
        let p = path(of: CatalogList.ref(node.id))
        guard !grants.seesAll(of: p) else { return total }
        return ChildGrants(grants, list: p).shownCount(of: total) { bySlug[SiblingName(node.id, $0)] != nil }
    }

    func json(_ node: CatalogNode, viewer: Viewer = Viewer()) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("type", .string("node")), ("name", .string(node.slug)), ("title", .string(node.title)),
            ("view", .string(node.view.kind)),
        ]
        switch node.view {
        case .branch: pairs.append(("children", .int(Int64(childCount(node, viewer: viewer)))))
        case .tabs(let t): pairs.append(("tabs", .array(t.map { .string($0) })))
        case .image(let i): pairs.append(("image", .string(i)))
        case .text(let t): pairs.append(("text", .string(t)))
        }
        return .object(pairs)
    }

    /// The node's row, its children counted as `viewer` sees them; `parent` is its parent's
    /// path when the caller has it (a listing).
    func row(_ node: CatalogNode, in parent: String? = nil, viewer: Viewer = Viewer()) -> Row {
        let detail: String
        switch node.view {
        case .branch:
            let n = childCount(node, viewer: viewer)
            detail = "(\(n) \(plural(n, "child", "children")))"
        case .tabs(let t): detail = "[tabs: \(t.joined(separator: ", "))]"
        case .image(let i): detail = "[image: \(i)]"
        case .text: detail = "[text]"
        }
        return Row(
            text: "\(node.slug)\(node.view == .branch ? "/" : "")  \(node.title)  \(detail)",
            json: json(node, viewer: viewer), path: RowPath(parent ?? path(of: CatalogList.ref(node.parent)), node.slug)
        )
    }

    public func list(_ ref: Ref, limit: Int, after: String?, viewer: Viewer) throws -> Reply {
        guard let node = nodes[CatalogList.id(ref)], node.view == .branch else { return try show(ref, viewer: viewer) }
        // The branch's children are read in place, by position (O(log n) each): a page builds
        // its own rows only, and AFTER finds its child by the index of names, then its place
        // from the child's handle, not by making every child's row.
        let p = path(of: ref)
        let child = { (i: Int) in childId(of: node.id, at: i).flatMap { nodes[$0] } }
        return try pageReply(
            count: childTotal(node.id), path: p, limit: limit, after: after, viewer: viewer,
            name: { child($0)?.slug ?? "" },
            position: { name in bySlug[SiblingName(node.id, name)].flatMap { nodes[$0] }.flatMap(position(of:)) },
            row: { row(child($0)!, in: p, viewer: viewer) })
    }

    public func completions(for verb: Verb, argument index: Int, at ref: Ref) -> [String] {
        guard verb == .set, index == 1, ref.kind != 0, let node = nodes[CatalogList.id(ref)] else { return [] }
        return node.view == .branch ? ["title="] : ["title=", "\(node.view.kind)="]
    }

    public func show(_ ref: Ref, viewer: Viewer) throws -> Reply {
        let p = path(of: ref)
        guard ref.kind != 0 else { return try list(ref, limit: Model.defaultPage, after: nil, viewer: viewer) }
        guard let node = nodes[ref.a] else { throw TabulaError(.notFound, "no \(p)") }
        var rows = [
            fieldRow("title", node.title, .string(node.title)),
            fieldRow("view", node.view.kind, .string(node.view.kind)),
        ]
        switch node.view {
        case .branch:
            let kids = seenChildren(node, viewer: viewer)
            rows.append(fieldRow("children", kids.map(\.slug).joined(separator: ", "), .int(Int64(kids.count))))
        case .tabs(let tabs):
            rows.append(fieldRow("tabs", tabs.joined(separator: ", "), .array(tabs.map { .string($0) })))
        case .image(let i): rows.append(fieldRow("image", i, .string(i)))
        case .text(let x): rows.append(fieldRow("text", x, .string(x)))
        }
        return Reply(rows: rows, message: p)
    }

    /// Adds a draft subtree under node `parent` (seeding: no revision, no event).
    mutating func insert(_ d: CatalogDraft, under parent: Int) {
        let node = CatalogNode(
            id: nextId, parent: parent, slug: uniqueSlug(d.title, under: parent), title: d.title, view: d.view,
            key: nextKey(under: parent))
        nextId += 1
        link(node)
        for c in d.children { insert(c, under: node.id) }
    }

    /// A slug for `title` that no child of `parent` has: its slug, or with `-2`, `-3`…
    mutating func uniqueSlug(_ title: String, under parent: Int) -> String {
        let base = Slug.make(title)
        guard bySlug[SiblingName(parent, base)] != nil else { return base }
        var n = nextSuffix[parent]?[base] ?? 2
        while bySlug[SiblingName(parent, "\(base)-\(n)")] != nil { n += 1 }
        nextSuffix[parent, default: [:]][base] = n + 1
        return "\(base)-\(n)"
    }

    /// The sort key for a new last child of `parent`: one past its last child's.
    func nextKey(under parent: Int) -> Int {
        let n = childTotal(parent)
        return n == 0 ? 0 : (childId(of: parent, at: n - 1).flatMap { nodes[$0]?.key } ?? n - 1) + 1
    }

    /// Puts `node` in the tree, among its parent's children by its key (last, as a new node
    /// and a load in key order are: O(log n)), and in the index.
    mutating func link(_ node: CatalogNode) {
        var node = node
        var list = children[node.parent].take() ?? OrderedList()  // changed in place, not copied
        let last = list.count == 0 ? nil : list.handle(at: list.count - 1).flatMap { nodes[list.id($0)]?.key }
        if last.map({ $0 <= node.key }) ?? true {
            node.handle = list.append(node.id)
        } else {  // the first sibling with a larger key, by binary search
            var (lo, hi) = (0, list.count)
            while lo < hi {
                let mid = (lo + hi) / 2
                let k = list.handle(at: mid).flatMap { nodes[list.id($0)]?.key } ?? .max
                if k <= node.key { lo = mid + 1 } else { hi = mid }
            }
            node.handle = list.insert(node.id, at: lo)
        }
        children[node.parent] = consume list
        nodes[node.id] = node
        index(node)
    }

    /// The child of `parent` titled `title` (any case), if any.
    func child(of parent: Int, titled title: String) -> Int? { byTitle[SiblingName(parent, title.lowercased())] }

    /// Puts `node` in its parent's indexes of names.
    mutating func index(_ node: CatalogNode) {
        bySlug[SiblingName(node.parent, node.slug)] = node.id
        byTitle[SiblingName(node.parent, node.title.lowercased())] = node.id
    }

    /// Takes `node` out of its parent's indexes (it is about to be put back, or goes).
    mutating func unindex(_ node: CatalogNode) {
        let slug = SiblingName(node.parent, node.slug)
        if bySlug[slug] == node.id { bySlug[slug] = nil }
        let title = SiblingName(node.parent, node.title.lowercased())
        if byTitle[title] == node.id { byTitle[title] = nil }
    }

    /// Takes node `id` (not its subtree) out of its parent's children and the tree.
    mutating func unlink(_ id: Int) {
        guard let node = nodes[id] else { return }
        if node.handle >= 0 { children[node.parent]?.remove(node.handle) }
        forget(id)
    }

    /// Drops node `id`, its names and its own children's list, leaving its parent's list
    /// alone (for a node whose parent goes too).
    mutating func forget(_ id: Int) {
        if let node = nodes[id] { unindex(node) }
        nodes[id] = nil
        children[id] = nil
        nextSuffix[id] = nil
    }
}
