import Glibc
import TabulaProtocol

/// The views, besides the whole list's and everyone's favourites (`Event.amongFavorites`),
/// that an event places its entry in: for each distinct grants that hide something (the
/// server's users') that user's view, and its favourites. Each is named as the users file
/// writes its grants, with ` FILTER favorites` for a favourites view. A write computes, in
/// each view that does not show its entry's list whole, where the entry stands before the
/// change and after it (`Event.inViews`), so that every watcher is sent positions that count
/// what it sees: O(views · prefixes · log n) a write, nothing without such users. At most
/// `most` grants get views (the first distinct ones in the order given): a user whose grants
/// are past them is sent events without positions, as before a view.
public struct EventViews: Sendable {
    /// The most grants whose views a write places its entry in (two views each, each costing
    /// a write that reaches its entry O(prefixes · log n)).
    public static let most = 16

    /// One view: whose grants, whether it shows favourites only, its name, and a viewer that
    /// sees as it does.
    public struct View: Sendable {
        public let grants: Grants
        public let favoritesOnly: Bool
        public let name: String
        let viewer: Viewer
    }

    public private(set) var views: [View] = []

    public init(_ grants: [Grants] = []) {
        var seen = Set<Grants>()
        for g in grants where !g.isUnrestricted && seen.count < EventViews.most && seen.insert(g).inserted {
            add(g, favoritesOnly: false)
            // Grants that show every item have everyone's favourites (`Event.amongFavorites`).
            if !g.seesAll(of: "/items") { add(g, favoritesOnly: true) }
        }
    }

    public var isEmpty: Bool { views.isEmpty }

    private mutating func add(_ g: Grants, favoritesOnly: Bool) {
        var v = Viewer(filter: favoritesOnly ? .favorites : .all)
        v.grants = g
        views.append(
            View(grants: g, favoritesOnly: favoritesOnly, name: Self.name(g, favoritesOnly: favoritesOnly), viewer: v))
    }

    /// The name of the view of `grants` (nil: every path), with FILTER favorites or not.
    public static func name(_ grants: Grants?, favoritesOnly: Bool) -> String {
        let g = grants.flatMap { $0.isUnrestricted ? nil : $0.description }
        guard favoritesOnly else { return g ?? "" }
        return g.map { $0 + " FILTER favorites" } ?? "FILTER favorites"
    }

    /// Whether any view counts differently from the whole list for the entry at `path`
    /// (nothing to ask without views: every write asks).
    public func differ(at path: String) -> Bool {
        views.contains { EventViews.differs($0, at: path) }
    }

    /// Whether `path` is an item's, `/items/ID`, read on its bytes.
    static func isItem(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { u in
            let prefix: StaticString = "/items/"
            let n = prefix.utf8CodeUnitCount
            guard u.count > n, memcmp(u.baseAddress!, prefix.utf8Start, n) == 0 else { return false }
            return !u[n...].contains(UInt8(ascii: "/"))
        }
    }

    /// Whether view `v` counts differently from the whole list for the entry at `path`: a
    /// favourites view for an item, a view of grants where they hide part of the entry's list
    /// or of what is under it; never a view whose grants do not reach the entry.
    static func differs(_ v: View, at path: String) -> Bool {
        // A view whose grants do not reach the entry is never sent its events.
        let g = v.grants
        guard g.covers(path) else { return false }
        // FILTER filters the items only (a favourites view is made only for grants that hide
        // some item: `init`; the others have everyone's favourites).
        if v.favoritesOnly { return isItem(path) }
        return !g.seesWhole(listOf: path) || !g.seesAll(of: path)
    }
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
            guard EventViews.differs(v, at: path) else { return nil }
            return ViewFacts(
                position: lists[i].position(of: ref, seenBy: v.viewer),
                count: lists[i].childCount(of: ref, seenBy: v.viewer))
        }
    }

    /// `e`'s figures in the views that are sent it and do not show its list and what is under
    /// its entry whole: from what each showed after the change (`after`), before it
    /// (`before`) and of the entry's parent after it (`parent`); nil when there are none.
    func viewPlacements(of e: Event, after: [ViewFacts?]?, before: [ViewFacts?]?, parent: [ViewFacts?]?)
        -> ViewPlacements?
    {
        var entries: [ViewPlacements.Entry] = []
        for (k, v) in eventViews.views.enumerated() where v.grants.receives(e) {
            guard EventViews.differs(v, at: e.path) else { continue }
            let entry = ViewPlacements.Entry(
                view: v.name, at: e.at == nil ? nil : after?[k]?.position,
                from: e.from == nil ? nil : before?[k]?.position, count: e.what.removes ? nil : after?[k]?.count,
                countBefore: before?[k]?.count, parentCount: e.parent == nil ? nil : parent?[k]?.count)
            // A favourites view says where the item is even when that is nowhere (not a favourite).
            if entry.says || v.favoritesOnly { entries.append(entry) }
        }
        return entries.isEmpty ? nil : ViewPlacements(entries)
    }
}
