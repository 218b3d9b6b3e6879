/// The items of each price section as one viewer is shown them, for `LS` and its counts.
/// A viewer without grants is answered by the store directly (O(log n) a page). For a
/// viewer with grants, its grants are reduced to a default and a few exceptions
/// (`ItemGrants`): counts, positions and pages are the store's, corrected by the exceptions
/// of the section, so a request costs O(page + exceptions · log n) whatever the viewer may
/// not see; pages, their "more" hints and every count skip what it may not see.
struct SeenItems {
    private let store: ItemStore
    private let favoritesOnly: Bool
    /// For a viewer with grants: what they say of items.
    private let grants: ItemGrants?
    /// Per section, the exceptions that pass the favourites filter, by their position in the
    /// store's order (among favourites when filtered), ascending.
    private let exceptions: [[(position: Int, id: Int)]]

    init(_ store: ItemStore, viewer: Viewer, favoritesOnly: Bool) {
        self.store = store
        self.favoritesOnly = favoritesOnly
        guard viewer.isRestricted, let given = viewer.grants else {
            grants = nil
            exceptions = []
            return
        }
        let g = ItemGrants(given)
        grants = g
        var bySection = store.bands.map { _ in [(position: Int, id: Int)]() }
        for id in g.exceptions {
            guard let item = store.item(id), !favoritesOnly || item.favorite else { continue }
            bySection[store.section(of: id)].append((store.position(of: id, favoritesOnly: favoritesOnly), id))
        }
        exceptions = bySection.map { $0.sorted { $0.position < $1.position } }
    }

    /// Items shown in section `s`.
    func count(_ s: Int) -> Int {
        let all = store.count(section: s, favoritesOnly: favoritesOnly)
        guard let grants else { return all }
        return grants.shownByDefault ? all - exceptions[s].count : exceptions[s].count
    }

    /// Items shown over all sections.
    var total: Int { store.bands.indices.reduce(0) { $0 + count($1) } }

    /// Whether item `id` is shown (ignoring the favourites filter) in one of `sections`.
    func isShown(_ id: Int, in sections: [Int]) -> Bool {
        guard store.item(id) != nil, sections.contains(store.section(of: id)) else { return false }
        return grants?.shows(id) ?? true
    }

    /// The position, among those shown in its section, of the first item after item `id`.
    func position(after id: Int) -> Int {
        let favs = favoritesOnly
        let here = store.position(of: id, favoritesOnly: favs)
        let counted = (store.item(id)?.favorite ?? false) || !favs ? 1 : 0  // the item itself
        guard let grants else { return here + counted }
        let before = exceptions[store.section(of: id)].count { $0.position < here + counted }
        return grants.shownByDefault ? here + counted - before : before  // hidden ones do not count
    }

    /// Where, among all items of section `s` (0-based), the shown item at `position` stands;
    /// nil past the end.
    func storePosition(ofShown position: Int, in s: Int) -> Int? {
        guard position >= 0 else { return nil }
        return page(s, from: position, limit: 1).first.map { store.position(of: $0.id) }
    }

    /// Up to `limit` items shown in section `s` from `position`.
    func page(_ s: Int, from position: Int, limit: Int) -> [Item] {
        guard let grants else {
            return store.page(section: s, from: position, limit: limit, favoritesOnly: favoritesOnly)
        }
        let exceptions = self.exceptions[s]
        guard grants.shownByDefault else {
            let shown = exceptions[min(position, exceptions.count)..<min(position + limit, exceptions.count)]
            return shown.compactMap { store.item($0.id) }
        }
        // The store position of the shown item at `position`: past every hidden one before it.
        var at = position
        var skipped = 0
        while skipped < exceptions.count, exceptions[skipped].position <= at {
            at += 1
            skipped += 1
        }
        let hidden = Set(exceptions[skipped...].map(\.id))
        let candidates = store.page(section: s, from: at, limit: limit + hidden.count, favoritesOnly: favoritesOnly)
        return Array(candidates.lazy.filter { !hidden.contains($0.id) }.prefix(limit))
    }
}
