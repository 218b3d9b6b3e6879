import TabulaProtocol

/// What a watcher is sent depends on who it is: its user's grants and its FILTER. One value
/// decides it for every path an event takes (live, its own events, replays), on every
/// transport. Pure.
///
/// With `FILTER favorites`, `/items` is its favourites: an item's event counts positions
/// among them (in its grants' view), an event of an item that is no favourite before or after
/// is not sent, and a change that makes an item one (`fav`, or any change of a favourite
/// that comes into view) is, for this watcher, an `add` at its place, one that makes it none
/// an `rm` from where it stood. Where an item's event was made without that view (an event
/// stored by a server of protocol version 1), it is sent without positions (a copy of the
/// favourites then takes a snapshot), never with positions counted in another view.
public struct WatcherView: Sendable, Hashable {
    public var grants: Grants?
    public var favoritesOnly: Bool

    public init(grants: Grants?, favoritesOnly: Bool) {
        self.grants = grants.flatMap { $0.isUnrestricted ? nil : $0 }
        self.favoritesOnly = favoritesOnly
    }

    /// The view of `viewer`: its grants and its filter.
    public init(_ viewer: Viewer) { self.init(grants: viewer.grants, favoritesOnly: viewer.filter == .favorites) }

    /// Whether it is sent every event as it is.
    public var isPlain: Bool { grants == nil && !favoritesOnly }

    /// The view as a connection keeps it: nil when plain (its events sent as they are).
    public var kept: WatcherView? { isPlain ? nil : self }

    /// The favourites view's figures for `e`, when it is an item's event in this view.
    private func favorites(_ e: Event) -> ViewPlacements.Entry? {
        guard favoritesOnly, EventViews.isItem(e.path) else { return nil }
        // Grants that show every item have everyone's favourites.
        guard let grants, !grants.seesAll(of: "/items") else {
            return e.amongFavorites?.entry(view: EventViews.name(nil, favoritesOnly: true))
        }
        return e.inViews?.entry(for: EventViews.name(grants, favoritesOnly: true))
    }

    /// Whether it is sent `e`.
    public func receives(_ e: Event) -> Bool {
        guard grants?.receives(e) ?? true else { return false }
        guard let own = favorites(e) else { return true }
        return own.at != nil || own.from != nil
    }

    /// `e` as it is sent it (call when `receives(e)`).
    public func view(_ e: Event) -> Event {
        let seen = grants?.view(e) ?? e
        guard favoritesOnly, EventViews.isItem(e.path) else { return seen }
        guard let own = favorites(e) else { return seen.restricted }  // no places among favourites told
        switch (own.from, own.at) {
        case (nil, let at?):  // comes into view
            var v = e.placed(inView: own)
            v.what = .add
            v.from = nil
            v.prev = .null
            // A move's summary (`#N in section: row`): its row alone.
            if v.summaryLine.begins(with: UInt8(ascii: "#")), let colon = v.summary.firstIndex(of: ":") {
                v.summary = String(v.summary[colon...].dropFirst(2))
            }
            v.at = Placement(section: e.at?.section, position: at)
            return v
        case (let from?, nil):  // goes out of view
            var v = e.placed(inView: own)
            v.what = .rm
            v.at = nil
            v.from = Placement(section: e.from?.section, position: from)
            if v.prev.isNull { v.prev = e.value }
            v.value = .null
            v.summary = v.prev["name"]?.stringValue ?? v.summary
            return v
        default:
            return e.placed(inView: own)
        }
    }
}
