import Testing
import TabulaProtocol

@testable import TabulaModel

/// A restricted viewer's items, counted and paged from the store and its grants'
/// exceptions, equal the items filtered one by one, for random stores and grants.
@Suite struct SeenItemsTests {
    /// Random grants over items: `/`, `/items`, single items, a section path and a path
    /// below an item, allowed or denied.
    static func grants(_ rng: inout SplitMix64, ids: Int) -> Grants {
        var allow: [String] = [], deny: [String] = []
        for _ in 0..<Int(rng.next() % 6) {
            let p: String
            switch rng.next() % 6 {
            case 0: p = "/items"
            case 1: p = "/items/cheap-items"
            case 2: p = "/items/\(rng.next() % UInt64(ids))/x"
            case 3: p = "/settings"
            default: p = "/items/\(rng.next() % UInt64(ids))"
            }
            if rng.next() % 2 == 0 { allow.append(p) } else { deny.append(p) }
        }
        return Grants(allow: allow, deny: deny)
    }

    @Test func countsPositionsAndPagesEqualTheItemsFilteredOneByOne() {
        var rng = SplitMix64(seed: 42)
        for round in 0..<300 {
            var store = ItemStore()
            let n = Int(rng.next() % 40)
            for i in 0..<n {
                let item = store.add(name: "i\(i)", value: Int(rng.next() % 100), serial: "S", created: 0)
                if rng.next() % 3 == 0 { _ = store.setFavorite(item.id, true) }
            }
            if n > 1, rng.next() % 2 == 0 { _ = store.move(1 + Int(rng.next() % UInt64(n)), to: 0) }
            var viewer = Viewer()
            viewer.grants = Self.grants(&rng, ids: n + 2)
            for favs in [false, true] {
                let seen = SeenItems(store, viewer: viewer, favoritesOnly: favs)
                for s in store.bands.indices {
                    let all = store.page(section: s, from: 0, limit: 1_000, favoritesOnly: favs)
                    let shown = all.filter { viewer.sees("/items/\($0.id)") }
                    let why = "round \(round), \(viewer.grants!), favourites \(favs), section \(s)"
                    #expect(seen.count(s) == shown.count, "\(why)")
                    for from in 0...shown.count + 1 {
                        for limit in [1, 2, 5] {
                            let want = Array(shown[min(from, shown.count)..<min(from + limit, shown.count)]).map(\.id)
                            #expect(
                                seen.page(s, from: from, limit: limit).map(\.id) == want,
                                "\(why), from \(from) limit \(limit)")
                        }
                    }
                    for it in store.page(section: s, from: 0, limit: 1_000, favoritesOnly: false)
                    where viewer.sees("/items/\(it.id)") {
                        let after =
                            shown.firstIndex { $0.id == it.id }.map { $0 + 1 }
                            ?? shown.count { $0.id != it.id && store.position(of: $0.id) < store.position(of: it.id) }
                        #expect(seen.position(after: it.id) == after, "\(why), after \(it.id)")
                        #expect(seen.isShown(it.id, in: [s]))
                    }
                }
            }
        }
    }
}
