import TabulaProtocol

/// The views, besides the whole list's, that an event places its entry in: one per distinct
/// grants that hide something (the server's users'), each named as the users file writes its
/// grants. A write computes its entry's position in each view that does not show the entry's
/// list whole, before the change and after it (`Event.inViews`), so that every watcher is sent
/// positions that count what it sees: O(views · prefixes · log n) a write, nothing without
/// such users. At most `most` views are kept (the first distinct grants in the order given):
/// a user whose grants are past them is sent events without positions, as before a view.
public struct EventViews: Sendable {
    /// The most views a write places its entry in.
    public static let most = 64

    /// The views: grants, and their names (`Grants.description`).
    public private(set) var views: [(grants: Grants, name: String, viewer: Viewer)] = []

    public init(_ grants: [Grants] = []) {
        var seen = Set<Grants>()
        for g in grants where !g.isUnrestricted && views.count < EventViews.most && seen.insert(g).inserted {
            var v = Viewer()
            v.grants = g
            views.append((g, g.description, v))
        }
    }

    public var isEmpty: Bool { views.isEmpty }
}

/// What one view shows of one entry: where it stands among its siblings, and how many
/// children its row counts.
struct ViewFacts: Sendable {
    var position: Int?
    var count: Int?
}

extension Model {
    /// What each view shows of the entry `ref` of list `i` (at `path`): nil for a view that
    /// shows its list and everything under it whole (the whole list's figures are its own).
    func factsInViews(list i: Int, ref: Ref, path: String) -> [ViewFacts?] {
        eventViews.views.map { v in
            guard !v.grants.seesWhole(listOf: path) || !v.grants.seesAll(of: path) else { return nil }
            return ViewFacts(
                position: lists[i].position(of: ref, seenBy: v.viewer),
                count: lists[i].childCount(of: ref, seenBy: v.viewer))
        }
    }

    /// What each view shows of the entry at `path`, found by its path.
    func factsInViews(ofPath path: String) -> [ViewFacts?]? {
        guard case .success(let t) = resolve(path, viewer: Viewer()), case .place(let i, let ref) = t, ref != .top
        else { return nil }
        return factsInViews(list: i, ref: ref, path: path)
    }

    /// `e`'s figures in the views that are sent it and do not show its list and what is under
    /// its entry whole: from what each showed after the change (`after`), before it
    /// (`before`) and of the entry's parent after it (`parent`); nil when there are none.
    func viewPlacements(of e: Event, after: [ViewFacts?]?, before: [ViewFacts?]?, parent: [ViewFacts?]?)
        -> ViewPlacements?
    {
        var entries: [ViewPlacements.Entry] = []
        for (k, v) in eventViews.views.enumerated() where v.grants.receives(e) {
            guard !v.grants.seesWhole(listOf: e.path) || !v.grants.seesAll(of: e.path) else { continue }
            let entry = ViewPlacements.Entry(
                view: v.name, at: e.at == nil ? nil : after?[k]?.position,
                from: e.from == nil ? nil : before?[k]?.position, count: e.what.removes ? nil : after?[k]?.count,
                countBefore: before?[k]?.count, parentCount: e.parent == nil ? nil : parent?[k]?.count)
            if entry.says { entries.append(entry) }
        }
        return entries.isEmpty ? nil : ViewPlacements(entries)
    }
}
