import TabulaProtocol

/// Where each list's entries stand (`ListStore.placement(of:)`): what an event says of the
/// entry it changed, before and after (`Event.at`, `Event.from`, `Event.prev`), so that a
/// client keeps a copy of a list from the events alone. Positions count in the whole list,
/// as an unrestricted viewer's `LS` of the entry's parent shows it (FILTER all).
public struct Placed: Sendable {
    public var at: Placement
    /// The entry's row, as its parent's `LS` shows it (without `rev`).
    public var row: JSONValue
}

extension ItemsList {
    public func placement(of ref: Ref, withRow: Bool) -> Placed? {
        guard ref.kind == ItemsList.item, let it = items.item(ref.a) else { return nil }
        return Placed(
            at: Placement(section: sectionName(ref.a), position: items.position(of: ref.a) + 1),
            row: withRow ? items.json(it) : .null)
    }
}

extension CatalogList {
    public func placement(of ref: Ref, withRow: Bool) -> Placed? {
        guard ref.kind == CatalogList.node, let node = nodes[ref.a], let i = position(of: node) else { return nil }
        return Placed(at: Placement(position: i + 1), row: withRow ? json(node) : .null)
    }
}

extension MenuList {
    public func placement(of ref: Ref, withRow: Bool) -> Placed? {
        switch ref.kind {
        case MenuList.section:
            return Placed(at: Placement(position: ref.a + 1), row: withRow ? sectionRow(ref.a).json : .null)
        case MenuList.entry:
            return Placed(at: Placement(position: ref.b + 1), row: withRow ? entryRow(ref.a, ref.b).json : .null)
        default: return nil
        }
    }
}

extension OrdersList {
    public func placement(of ref: Ref, withRow: Bool) -> Placed? {
        guard ref.kind == OrdersList.order, let o = orders.order(ref.a), let i = orders.position(of: ref.a) else {
            return nil
        }
        return Placed(at: Placement(position: i + 1), row: withRow ? o.json : .null)
    }
}

extension SettingsList {
    public func placement(of ref: Ref, withRow: Bool) -> Placed? {
        guard ref.kind == SettingsList.setting else { return nil }
        return Placed(at: Placement(position: ref.a + 1), row: withRow ? settingJSON(ref.a) : .null)
    }
}

/// Where the entry a write changes stood before it: its path, its place and row, and where
/// the write resolved it (`list`, `ref`: nil when it was found by path), from which its place
/// after the write is read again.
struct PlacedBefore: Sendable {
    var path: String
    var placed: Placed
    var resolved: (list: Int, ref: Ref)?
    /// What the model's event views show of it (`EventViews`), when there are any.
    var inViews: [ViewFacts?]? = nil
    /// For an item: its place among its section's favourites (0: none).
    var favorite: Int? = nil

    init(path: String, placed: Placed, resolved: (list: Int, ref: Ref)?, inViews: [ViewFacts?]?, favorite: Int?) {
        self.path = path
        self.placed = placed
        self.resolved = resolved
        self.inViews = inViews
        self.favorite = favorite
    }
}

extension Model {
    /// Where the entry at canonical `path` stands, and its row (`.null` unless `withRow`); nil
    /// when `path` is no entry of an ordered list (a list itself, `/`, a setting's option, or
    /// nothing).
    func placement(ofPath path: String, withRow: Bool = true) -> Placed? {
        entry(atPath: path).flatMap { lists[$0.list].placement(of: $0.ref, withRow: withRow) }
    }

    /// The list and place of the entry at canonical `path`; nil for a list itself, `/`, or
    /// nothing. What the lookups by path below share: one resolution each.
    func entry(atPath path: String) -> (list: Int, ref: Ref)? {
        guard case .success(let t) = resolve(path, viewer: Viewer()), case .place(let i, let ref) = t, ref != .top
        else { return nil }
        return (i, ref)
    }

    /// Where the entry at canonical `path` stands in `viewer`'s own view of its list (1-based,
    /// in its section where the list has sections); nil when `viewer` is not shown it or it is
    /// no entry of an ordered list.
    public func position(ofPath path: String, seenBy viewer: Viewer) -> Int? {
        entry(atPath: path).flatMap { lists[$0.list].position(of: $0.ref, seenBy: viewer) }
    }

    /// The entry a write to `target` changes, and where it stands before: `target` itself,
    /// or when that is no entry (a setting's option) its parent (the setting).
    /// `resolved` is the write's named path as resolved: read in place when `target` is that
    /// path (not resolved again), which it is unless the write's condition is its whole list.
    func placementBefore(writing target: String, resolved: Result<Target, TabulaError>?) -> PlacedBefore? {
        // Read in place where the write resolved its path; else resolved here, once. Only the
        // first is kept for after the write (`resolved`): the rest were found by path.
        if case .success(.place(let i, let ref))? = resolved, ref != .top, !Model.conditionIsItsList(i, ref, in: self) {
            if var b = placed(i, ref, at: target) {
                b.resolved = (i, ref)  // set in place: a copy of the whole value otherwise
                return b
            }
        } else if let (i, ref) = entry(atPath: target), let b = placed(i, ref, at: target) {
            return b
        }
        let parent = ModelPath.parent(target)
        guard parent != target, let (i, ref) = entry(atPath: parent) else { return nil }
        return placed(i, ref, at: parent)
    }

    /// The entry `ref` of list `i` (at `path`) as it stands: its place and row, in the event
    /// views, and for an item among the favourites.
    private func placed(_ i: Int, _ ref: Ref, at path: String) -> PlacedBefore? {
        guard let p = lists[i].placement(of: ref, withRow: true) else { return nil }
        let views = eventViews.differ(at: path) ? factsInViews(list: i, ref: ref, path: path) : nil
        let favorite = i == Model.itemsIndex ? lists[i].favoritePosition(of: ref) : nil
        return PlacedBefore(path: path, placed: p, resolved: nil, inViews: views, favorite: favorite)
    }

    /// What `e`, the event of a write whose entry stood at `before`, says besides its value:
    /// where its entry stands now and stood before, the entry as it was, and for an addition
    /// or removal under a nested list its parent's row now; and the same places in the event
    /// views (`Event.inViews`) and, for an item, among the favourites (`Event.amongFavorites`).
    /// An event that names the path its
    /// write resolved finds its place after from that resolution (`ListStore.placement(of:)`
    /// says why the ref still names the entry); any other path is resolved.
    /// `found` is the event's entry as the write found it, when it says (`Outcome.entry`).
    func addContext(to e: inout Event, before: consuming PlacedBefore?, found: (list: Int, ref: Ref)?) {
        var again: (list: Int, ref: Ref)?
        var fromViews: [ViewFacts?]?
        var atViews: [ViewFacts?]?
        var favoriteBefore: Int?, favoriteAfter: Int?
        let views = eventViews.differ(at: e.path)
        if var b = before.take(), b.path == e.path {
            again = b.resolved
            e.from = b.placed.at
            fromViews = b.inViews
            favoriteBefore = b.favorite
            swap(&e.prev, &b.placed.row)  // moved in, not copied (a copy retains it, and b's end releases it)
        }
        if !e.what.removes {
            if let (i, ref) = again ?? found ?? entry(atPath: e.path) {
                e.at = lists[i].placement(of: ref, withRow: false)?.at
                if views { atViews = factsInViews(list: i, ref: ref, path: e.path) }
                if i == Model.itemsIndex { favoriteAfter = lists[i].favoritePosition(of: ref) }
            }
        }
        if favoriteBefore != nil || favoriteAfter != nil {
            e.amongFavorites = FavoritePlaces(at: favoriteAfter ?? 0, from: favoriteBefore ?? 0)
        }
        var parentViews: [ViewFacts?]?
        if e.what == .add || e.what == .rm {
            let parent = ModelPath.parent(e.path)
            if let (i, ref) = entry(atPath: parent) {
                e.parent = lists[i].placement(of: ref, withRow: true)?.row
                if views && e.parent != nil { parentViews = factsInViews(list: i, ref: ref, path: parent) }
            }
        }
        if views && e.hasContext {
            e.inViews = viewPlacements(of: e, after: atViews, before: fromViews, parent: parentViews)
        }
    }
}
