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
            row: withRow ? row(it).json : .null)
    }
}

extension CatalogList {
    public func placement(of ref: Ref, withRow: Bool) -> Placed? {
        guard ref.kind == CatalogList.node, let node = nodes[ref.a], let parent = nodes[node.parent],
            let i = parent.children.firstIndex(of: node.id)
        else { return nil }
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
        return Placed(at: Placement(position: ref.a + 1), row: withRow ? settingRow(ref.a).json : .null)
    }
}

extension Model {
    /// Where the entry at canonical `path` stands, and its row (`.null` unless `withRow`); nil
    /// when `path` is no entry of an ordered list (a list itself, `/`, a setting's option, or
    /// nothing).
    func placement(ofPath path: String, withRow: Bool = true) -> Placed? {
        guard case .success(let t) = resolve(path, viewer: Viewer()), case .place(let i, let ref) = t, ref != .top
        else { return nil }
        return lists.withUnsafeBufferPointer { $0[i].placement(of: ref, withRow: withRow) }
    }

    /// The entry a write to `target` changes, and where it stands before: `target` itself,
    /// or when that is no entry (a setting's option) its parent (the setting).
    /// `resolved` is the write's named path as resolved: read in place when `target` is that
    /// path (not resolved again), which it is unless the write's condition is its whole list.
    func placementBefore(writing target: String, resolved: Result<Target, TabulaError>?) -> (
        path: String, placed: Placed
    )? {
        if case .success(.place(let i, let ref))? = resolved, ref != .top, !Model.conditionIsItsList(i, ref, in: self) {
            if let p = lists.withUnsafeBufferPointer({ $0[i].placement(of: ref, withRow: true) }) { return (target, p) }
        } else if let p = placement(ofPath: target) {
            return (target, p)
        }
        let parent = ModelPath.parent(target)
        return parent == target ? nil : placement(ofPath: parent).map { (parent, $0) }
    }

    /// What `e`, the event of a write whose entry stood at `before`, says besides its value:
    /// where its entry stands now and stood before, the entry as it was, and for an addition
    /// or removal under a nested list its parent's row now.
    func addContext(to e: inout Event, before: (path: String, placed: Placed)?) {
        if let before, before.path == e.path {
            e.from = before.placed.at
            e.prev = before.placed.row
        }
        if e.kind != "rm" && e.kind != "clear" { e.at = placement(ofPath: e.path, withRow: false)?.at }
        if e.kind == "add" || e.kind == "rm" { e.parent = placement(ofPath: ModelPath.parent(e.path))?.row }
    }
}
