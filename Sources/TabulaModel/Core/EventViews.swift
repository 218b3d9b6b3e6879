import TabulaProtocol

/// The views, besides the whole list's, that an event places its entry in: one per distinct
/// grants that hide something (the server's users'), each named as the users file writes its
/// grants. A write computes its entry's position in each view that does not show the entry's
/// list whole, before the change and after it (`Event.inViews`), so that every watcher is sent
/// positions that count what it sees: O(views · prefixes · log n) a write, nothing without
/// such users.
public struct EventViews: Sendable {
    /// The views: grants, and their names (`Grants.description`).
    public private(set) var views: [(grants: Grants, name: String, viewer: Viewer)] = []

    public init(_ grants: [Grants] = []) {
        var seen = Set<Grants>()
        for g in grants where !g.isUnrestricted && seen.insert(g).inserted {
            var v = Viewer()
            v.grants = g
            views.append((g, g.description, v))
        }
    }

    public var isEmpty: Bool { views.isEmpty }
}

extension Model {
    /// The positions of the entry `ref` of list `i` (at `path`) in each view that does not
    /// see its list whole: nil where the view sees it whole or is not shown the entry.
    func positionsInViews(list i: Int, ref: Ref, path: String) -> [Int?] {
        eventViews.views.map { v in
            v.grants.seesWhole(listOf: path) ? nil : lists[i].position(of: ref, seenBy: v.viewer)
        }
    }

    /// The positions in views of the entry at `path`, found by its path.
    func positionsInViews(ofPath path: String) -> [Int?]? {
        guard case .success(let t) = resolve(path, viewer: Viewer()), case .place(let i, let ref) = t, ref != .top
        else { return nil }
        return positionsInViews(list: i, ref: ref, path: path)
    }

    /// `e`'s positions in the views that are sent it and do not see its list whole, from
    /// those after the change (`at`) and before it (`from`); nil when there are none.
    func viewPlacements(of e: Event, at: [Int?]?, from: [Int?]?) -> ViewPlacements? {
        var entries: [ViewPlacements.Entry] = []
        for (k, v) in eventViews.views.enumerated() where !v.grants.seesWhole(listOf: e.path) && v.grants.receives(e) {
            let a = e.at == nil ? nil : at?[k]
            let f = e.from == nil ? nil : from?[k]
            if a != nil || f != nil { entries.append(ViewPlacements.Entry(view: v.name, at: a, from: f)) }
        }
        return entries.isEmpty ? nil : ViewPlacements(entries)
    }
}
