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
        let children = ChildGrants(grants, list: "/items")
        shownByDefault = children.shownByDefault
        exceptions = children.numberedExceptions.sorted()
    }

    /// Whether item `id` is shown.
    func shows(_ id: Int) -> Bool { exceptions.contains(id) != shownByDefault }
}
