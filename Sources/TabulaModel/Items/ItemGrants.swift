/// What a viewer's grants say of items, reduced to a default and its exceptions. An item's
/// path is `/items/ID` with nothing under it, so only the prefixes `/`, `/items` and those
/// naming one item (`/items/7`, or a path below it) decide whether it is shown: every item
/// that no prefix names is shown alike (`shownByDefault`), and the items some prefix names
/// are the only ones that may differ (`exceptions`). Their number is bounded by the grants'
/// prefixes, not by the store, so a restricted viewer's reads cost what an admin's do plus
/// O(prefixes · log n).
struct ItemGrants {
    /// Whether an item that no prefix names is shown.
    let shownByDefault: Bool
    /// The ids whose visibility differs from the default, ascending.
    let exceptions: [Int]

    init(_ grants: Grants) {
        // No prefix can name an item by this segment: it is not a number.
        shownByDefault = grants.shows("/items/-")
        var named = Set<Int>()
        for p in grants.allow + grants.deny where p.hasPrefix("/items/") {
            let segment = p.dropFirst("/items/".count).prefix { $0 != "/" }
            // Paths compare as bytes: `/items/07` names no item, `/items/7` names item 7.
            if let id = Int(segment), id >= 0, String(id) == segment { named.insert(id) }
        }
        let base = shownByDefault
        exceptions = named.filter { grants.shows("/items/\($0)") != base }.sorted()
    }

    /// Whether item `id` is shown.
    func shows(_ id: Int) -> Bool { exceptions.contains(id) != shownByDefault }
}
