/// The items of each price section as one viewer is shown them, for `LS` and its counts:
/// for a viewer without grants the store answers directly (O(log n) a page); for a viewer
/// with grants, each section is listed once and filtered (O(n), paid only by such viewers),
/// so that pages, their "more" hints and every count skip what the viewer may not see.
struct SeenItems {
    private let store: ItemStore
    private let favoritesOnly: Bool
    /// Per section, for a viewer with grants: the items it sees (before the favourites filter).
    private let seen: [[Item]]?

    init(_ store: ItemStore, viewer: Viewer, favoritesOnly: Bool) {
        self.store = store
        self.favoritesOnly = favoritesOnly
        seen = viewer.isRestricted
            ? store.bands.indices.map { s in store.page(section: s, from: 0, limit: store.count(section: s), favoritesOnly: false).filter { viewer.sees("/items/\($0.id)") } }
            : nil
    }

    /// Items shown in section `s`.
    func count(_ s: Int) -> Int {
        guard let seen else { return store.count(section: s, favoritesOnly: favoritesOnly) }
        return favoritesOnly ? seen[s].count { $0.favorite } : seen[s].count
    }

    /// Items shown over all sections.
    var total: Int { store.bands.indices.reduce(0) { $0 + count($1) } }

    /// Whether item `id` is shown (ignoring the favourites filter) in one of `sections`.
    func isShown(_ id: Int, in sections: [Int]) -> Bool {
        guard store.item(id) != nil, sections.contains(store.section(of: id)) else { return false }
        return seen.map { $0[store.section(of: id)].contains { $0.id == id } } ?? true
    }

    /// The position, among those shown in its section, of the first item after item `id`.
    func position(after id: Int) -> Int {
        let favs = favoritesOnly
        guard let seen else {
            return store.position(of: id, favoritesOnly: favs) + ((store.item(id)?.favorite ?? false) || !favs ? 1 : 0)
        }
        let section = seen[store.section(of: id)]
        let upTo = (section.firstIndex { $0.id == id } ?? -1) + 1
        return favs ? section[..<upTo].count { $0.favorite } : upTo
    }

    /// Up to `limit` items shown in section `s` from `position`.
    func page(_ s: Int, from position: Int, limit: Int) -> [Item] {
        guard let seen else { return store.page(section: s, from: position, limit: limit, favoritesOnly: favoritesOnly) }
        let shown = favoritesOnly ? seen[s].filter(\.favorite) : seen[s]
        return Array(shown[min(position, shown.count)..<min(position + limit, shown.count)])
    }
}
