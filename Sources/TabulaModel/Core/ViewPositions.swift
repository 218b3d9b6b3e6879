/// Where an entry stands in one viewer's own view of its list: among the siblings that
/// viewer's `LS` of the parent shows (`ListStore.position(of:seenBy:)`), counted as its pages
/// count them; and how many children its row counts in that view (`childCount(of:seenBy:)`).
/// Each costs about what a step of that `LS` costs: O(prefixes · log n) lookups for grants
/// that hide some of the list (`ChildGrants`, `SeenItems`, `SeenOrders`).
extension ItemsList {
    public func position(of ref: Ref, seenBy viewer: Viewer) -> Int? {
        guard ref.kind == ItemsList.item, let item = items.item(ref.a) else { return nil }
        let favoritesOnly = viewer.filter == .favorites
        guard item.favorite || !favoritesOnly else { return nil }
        let shown = SeenItems(items, viewer: viewer, favoritesOnly: favoritesOnly)
        guard shown.isShown(ref.a, in: [items.section(of: ref.a)]) else { return nil }
        return shown.position(after: ref.a)  // the next one's 0-based place is this one's 1-based
    }
}

extension ItemsList {
    public func favoritePosition(of ref: Ref) -> Int? {
        guard ref.kind == ItemsList.item, let item = items.item(ref.a) else { return nil }
        return item.favorite ? items.position(of: ref.a, favoritesOnly: true) + 1 : 0
    }
}

extension OrdersList {
    public func position(of ref: Ref, seenBy viewer: Viewer) -> Int? {
        guard ref.kind == OrdersList.order, let p = orders.position(of: ref.a) else { return nil }
        guard viewer.isRestricted, let grants = viewer.grants else { return p + 1 }
        return SeenOrders(orders, grants: grants).position(of: ref.a)
    }
}

extension CatalogList {
    public func position(of ref: Ref, seenBy viewer: Viewer) -> Int? {
        guard ref.kind == CatalogList.node, let node = nodes[ref.a], let i = position(of: node) else { return nil }
        let parent = node.parent
        let shown = ShownChildren(
            count: childTotal(parent), path: path(of: CatalogList.ref(parent)), viewer: viewer,
            name: { childId(of: parent, at: $0).flatMap { nodes[$0] }?.slug ?? "" },
            position: { name in bySlug[SiblingName(parent, name)].flatMap { nodes[$0] }.flatMap(position(of:)) })
        return shown.contains(i) ? shown.shownBefore(i) + 1 : nil
    }

    public func childCount(of ref: Ref, seenBy viewer: Viewer) -> Int? {
        guard ref.kind == CatalogList.node, let node = nodes[ref.a], node.view == .branch else { return nil }
        return childCount(node, viewer: viewer)
    }
}

extension MenuList {
    public func childCount(of ref: Ref, seenBy viewer: Viewer) -> Int? {
        guard ref.kind == MenuList.section, case .object(let pairs) = sectionRow(ref.a, viewer: viewer).json else {
            return nil
        }
        return pairs.first { $0.0 == "entries" }?.1.intValue.map(Int.init)
    }

    public func position(of ref: Ref, seenBy viewer: Viewer) -> Int? {
        switch ref.kind {
        case MenuList.section:
            return Self.position(ref.a, among: sections.map(\.slug), in: "/menu", seenBy: viewer)
        case MenuList.entry:
            let entries = sections[ref.a].entries.map(\.slug)
            return Self.position(ref.b, among: entries, in: path(of: Ref(MenuList.section, ref.a)), seenBy: viewer)
        default: return nil
        }
    }
}

extension SettingsList {
    public func position(of ref: Ref, seenBy viewer: Viewer) -> Int? {
        guard ref.kind == SettingsList.setting else { return nil }
        return Self.position(ref.a, among: settings.map(\.slug), in: "/settings", seenBy: viewer)
    }
}

extension ListStore {
    /// Where entry `i` of `names` (the children of `path`, in order) stands among those
    /// `viewer` is shown (1-based); nil when it is not shown. For short lists.
    static func position(_ i: Int, among names: [String], in path: String, seenBy viewer: Viewer) -> Int? {
        let shown = ShownChildren(
            count: names.count, path: path, viewer: viewer, name: { names[$0] },
            position: { n in names.firstIndex(of: n) })
        return shown.contains(i) ? shown.shownBefore(i) + 1 : nil
    }
}
