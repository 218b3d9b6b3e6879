import Testing
import TabulaProtocol

@testable import TabulaModel

/// `/orders` for a viewer with grants, read through `SeenOrders` (counts by entry, the orders
/// its prefixes name), is what the slow way gives: every order's path and entry checked. Random
/// orders of random entries, some removed, random grants denying entries, sections and
/// orders (with byte variants such as `/orders/07`); every page of every size, the count in
/// `LS /orders`' reply and in `LS /`'s row. A failure names its seed.
@Suite struct SeenOrdersTests {
    static let entries = [
        "/menu/pizza/margherita", "/menu/pizza/pepperoni", "/menu/pasta/carbonara", "/menu/dessert/tiramisu",
    ]

    static func grants(_ g: inout SplitMix64) -> Grants {
        let pool =
            entries + [
                "/menu/pizza", "/menu", "/orders", "/orders/3", "/orders/03", "/orders/7", "/orders/12", "/orders/7/x",
                "/items",
            ]
        func some() -> [String] { (0..<Int(g.next() % 3)).map { _ in pool[Int(g.next() % UInt64(pool.count))] } }
        return Grants(allow: g.next() % 3 == 0 ? some() : [], deny: some())
    }

    /// Every order the slow way: `(id, shown)` in the list's order.
    static func naive(_ h: Harness, _ grants: Grants) -> [Int] {
        h.viewer.grants = nil
        defer { h.viewer.grants = grants }
        return h.run("LS /orders LIMIT 10000").reply.rows.compactMap { row -> Int? in
            let o = row.json.resolved
            guard let id = o["id"]?.intValue, let entry = o["entry"]?.stringValue else { return nil }
            return grants.shows("/orders/\(id)") && !grants.denies(entry) ? Int(id) : nil
        }
    }

    @Test func aRestrictedViewersPagesAndCountsOfOrdersAreTheSlowWays() {
        var checked = 0
        for seed in UInt64(1)...300 {
            var g = SplitMix64(seed: seed)
            let h = Harness()
            for _ in 0..<Int(10 + g.next() % 30) {
                let e = Self.entries[Int(g.next() % UInt64(Self.entries.count))]
                _ = h.run("ORDER \(e)")
                if g.next() % 5 == 0 { _ = h.run("RM /orders/\(1 + g.next() % 20)") }
            }
            let grants = Self.grants(&g)
            let all = Self.naive(h, Grants())
            let want = Self.naive(h, grants)
            h.viewer.grants = grants
            guard h.viewer.isRestricted, h.viewer.sees("/orders") else { continue }
            checked += 1
            let limit = 1 + Int(g.next() % 5)
            var got: [Int] = []
            var next = "LS /orders LIMIT \(limit)"
            while true {
                let r = h.run(next).reply
                #expect(got.isEmpty || !r.rows.isEmpty, "seed \(seed): a hint led to an empty page: \(next)")
                got += r.rows.compactMap { $0.json.resolved["id"]?.intValue.map(Int.init) }
                #expect(r.message.hasPrefix("\(r.rows.count) of \(want.count)"), "seed \(seed) \(grants): \(r.message)")
                guard let more = r.message.range(of: "more: ") else { break }
                next = String(r.message[more.upperBound...])
            }
            #expect(got == want, "seed \(seed) \(grants), LIMIT \(limit)")
            for hidden in all where !want.contains(hidden) {
                #expect(h.error("LS /orders LIMIT 1 AFTER \(hidden)") == .notFound, "seed \(seed): AFTER \(hidden)")
            }
            let row = h.run("LS /").reply.rows.first { $0.text.hasPrefix("orders/") }
            #expect(row?.text.contains("\(want.count) order") == true, "seed \(seed): \(String(describing: row?.text))")
        }
        #expect(checked > 100, "only \(checked) seeds gave a restricted viewer of /orders")
    }

    @Test func aRestrictedPageReadsAboutItsOwnOrdersNotTheHiddenOnesInItsWay() {
        var book = OrderBook()
        _ = book.append(entry: Self.entries[1], title: "Pepperoni", created: 0)
        for _ in 0..<20_000 { _ = book.append(entry: Self.entries[0], title: "Margherita", created: 0) }
        for i in 0..<50 { _ = book.append(entry: Self.entries[1 + i % 3], title: "Other", created: 0) }
        _ = book.remove(book.nextId - 7)
        let seen = SeenOrders(book, grants: Grants(deny: [Self.entries[0], "/orders/20003"]))
        #expect(seen.count == 1 + 50 - 2)  // less one removed and one denied by name
        // After the first order (position 1 on): 20,000 hidden margheritas, then the seen others.
        let page = seen.page(from: 1, limit: 10)
        #expect(page.orders.map(\.id) == [20_002] + Array(20_004...20_012))
        #expect(page.more)
        #expect(page.examined <= 3 * 10 + 66, "read \(page.examined) orders for a page of 10")
        let last = seen.page(from: book.count - 3, limit: 10)
        #expect(last.orders.count == 3 && !last.more)
    }

    @Test func anOrderOfADeniedEntryIsNeitherCompletedNorSuggested() {
        let h = Harness()
        for e in Self.entries { _ = h.run("ORDER \(e)") }  // orders 1 to 4, the first a margherita
        h.viewer.grants = Grants(deny: ["/menu/pizza/margherita"])
        #expect(h.rows("COMPLETE SHOW /orders/") == ["/orders/2", "/orders/3", "/orders/4"])
        #expect(h.error("SHOW /orders/1") == .notFound)
        #expect(h.run("SHOW /orders/1").reply.error?.message.contains("/orders/1") == true)
    }
}
