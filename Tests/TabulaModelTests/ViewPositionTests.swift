import Testing
import TabulaProtocol

@testable import TabulaModel

/// An entry's position in a viewer's own view (`Model.position(ofPath:seenBy:)`) is where that
/// viewer's own `LS` of the parent shows it: random entries in every ordered list, random
/// grants allowing and denying entries, sections and orders' menu entries; every row of every
/// list checked. A failure names its seed.
@Suite struct ViewPositionTests {
    static let pool = [
        "/items", "/items/1", "/items/3", "/items/7", "/items/12", "/orders", "/orders/2", "/orders/5",
        "/menu/pizza", "/menu/pizza/margherita", "/menu/pasta/carbonara", "/menu/dessert", "/catalog",
        "/catalog/item-1", "/catalog/item-2/item-2.1", "/catalog/b/c-3", "/catalog/b/c-7", "/settings/my-int",
        "/settings/my-text", "/catalog/b",
    ]

    static func grants(_ g: inout SplitMix64) -> Grants {
        func some() -> [String] { (0..<Int(1 + g.next() % 3)).map { _ in pool[Int(g.next() % UInt64(pool.count))] } }
        return Grants(allow: g.next() % 4 == 0 ? some() : [], deny: some())
    }

    static func fill(_ h: Harness, _ g: inout SplitMix64) {
        let dishes = ["margherita", "pepperoni", "carbonara", "tiramisu"]
        _ = h.run("ADD /catalog b")
        for i in 0..<Int(4 + g.next() % 10) {
            _ = h.run("ADD /items thing-\(i) \(1 + g.next() % 40)")
            _ = h.run("ORDER \(dishes[Int(g.next() % 4)])")
            _ = h.run("ADD /catalog/b c-\(i)")
        }
        for _ in 0..<3 { _ = h.run("RM /orders/\(1 + g.next() % 8)") }
    }

    /// Every listed row's path, by parent list: in each, the rows in the order shown.
    static func listed(_ h: Harness) -> [[String]] {
        var out: [[String]] = []
        for list in [
            "/items", "/orders", "/catalog", "/catalog/b", "/catalog/item-2", "/menu", "/menu/pizza", "/settings",
        ] {
            var run: [String] = []
            for row in h.run("LS \(list) LIMIT 10000").reply.rows {
                guard let p = row.path?.string else {  // a section's header starts another run
                    if !run.isEmpty { out.append(run) }
                    run = []
                    continue
                }
                run.append(p)
            }
            if !run.isEmpty { out.append(run) }
        }
        return out
    }

    @Test func anEntrysPositionInAViewIsWhereThatViewersOwnListShowsIt() {
        var checked = 0
        for seed in UInt64(1)...150 {
            var g = SplitMix64(seed: seed)
            let h = Harness()
            Self.fill(h, &g)
            let grants = Self.grants(&g)
            h.viewer.grants = grants
            for run in Self.listed(h) {
                for (i, path) in run.enumerated() {
                    let got = h.model.position(ofPath: path, seenBy: h.viewer)
                    #expect(
                        got == i + 1,
                        "seed \(seed) \(grants): \(path) is #\(i + 1) in its LS, said \(String(describing: got))")
                    checked += 1
                }
            }
            let restricted = h.viewer
            h.viewer.grants = nil
            for run in Self.listed(h) {
                for path in run where !grants.shows(path) {
                    #expect(h.model.position(ofPath: path, seenBy: restricted) == nil, "seed \(seed): \(path)")
                }
            }
        }
        #expect(checked > 3_000)
    }
}

/// The views a write places its entries in besides everyone's favourites: for each distinct
/// restricted grants its view and its favourites, for at most `EventViews.most` grants.
@Suite struct EventViewsTests {
    @Test func theViewsAreEachDistinctRestrictedGrantsAndItsFavouritesForAtMostSixteen() {
        let many = (0..<100).map { Grants(deny: ["/items/\($0)"]) }
        let views = EventViews([Grants(), many[0], many[0]] + many).views.map(\.name)
        #expect(views.count == 2 * EventViews.most)
        #expect(views.prefix(2) == ["deny=/items/0", "deny=/items/0 FILTER favorites"])
        #expect(views.last == "deny=/items/15 FILTER favorites")
        #expect(EventViews([Grants(), Grants()]).isEmpty)
    }

    @Test func anItemsPathIsToldOnItsBytes() {
        #expect(EventViews.isItem("/items/7") && EventViews.isItem("/items/12345"))
        #expect(!EventViews.isItem("/items") && !EventViews.isItem("/items/") && !EventViews.isItem("/items/7/x"))
        #expect(!EventViews.isItem("/itemsx/7") && !EventViews.isItem("/menu/items/7"))
    }
}
