import Foundation
import Testing
import TabulaModel
import TabulaProtocol

@Suite struct ItemStoreTests {
    @Test func itemsAreShownInPriceSectionsWithHeaders() {
        let h = Harness()
        #expect(
            h.rows("LS /items") == [
                "== Cheap Items (< $50): 2 items",
                "1  Rusty Spork  $12  serial=5A3C9E01",
                "2  Fluffy Bear  $34  serial=0B77D2C4  ★",
                "== Expensive Items (≥ $50): 2 items",
                "3  Shiny Mac  $85  serial=9F21A0B3",
                "4  Rusty Mac  $63  serial=44E8C17D",
            ])
    }

    @Test func anEmptySectionSaysNoItems() {
        let h = Harness()
        #expect(h.ok("RM /items/3"))
        #expect(h.ok("RM /items/4"))
        #expect(h.rows("LS /items/expensive-items") == ["== Expensive Items (≥ $50): 0 items", "No Items"])
    }

    @Test func addingByNameAndValuePlacesTheItemByPrice() {
        let h = Harness()
        let o = h.run(#"ADD /items "Red Chair" $50"#)
        #expect(o.reply.message == "/items/5 in expensive-items")
        #expect(h.ids(1) == [3, 4, 5])
        #expect(o.event?.kind == "add")
    }

    @Test func aRandomItemLooksLikeTheBooks() {
        let h = Harness()
        for _ in 0..<50 {
            let o = h.run("ADD /items")
            guard case .object(let f)? = o.reply.rows.first?.json.resolved else { Issue.record("no row"); return }
            let d = Dictionary(uniqueKeysWithValues: f)
            let words = d["name"]?.stringValue?.split(separator: " ") ?? []
            #expect(words.count == 2)
            #expect(["Fluffy", "Rusty", "Shiny"].contains(String(words.first ?? "")))
            #expect(["Bear", "Spork", "Mac"].contains(String(words.last ?? "")))
            #expect((0..<100).contains(d["value"]?.intValue ?? -1))
            #expect(d["serial"]?.stringValue?.count == 8)
        }
    }

    @Test func badValuesAreRefused() {
        let h = Harness()
        #expect(h.error("ADD /items Thing cheap") == .invalid)
        #expect(h.error("ADD /items Thing -5") == .invalid)
        #expect(h.error("ADD /items OnlyName") == .syntax)
    }

    @Test func movingWithinASectionReorders() {
        let h = Harness()
        #expect(h.ok("MV /items/4 1"))
        #expect(h.ids(1) == [4, 3])
        #expect(h.ok("ADD /items X 70"))
        #expect(h.ok("MV /items/5 2"))
        #expect(h.ids(1) == [4, 5, 3])
    }

    @Test func movingPastTheEndOfTheSectionIsRefusedAsACrossSectionMove() {
        let h = Harness()
        let o = h.run("MV /items/1 3")
        #expect(o.reply.error?.code == .invalid)
        #expect(o.reply.error?.message.contains("cannot leave the section of their price") == true)
        #expect(h.ids(0) == [1, 2])
    }

    @Test func aMoveWhileFavouritesAreShownCountsPositionsAmongTheFavouritesAsTheSeedDoes() {
        let h = Harness()
        for line in ["ADD /items Cup 5", "ADD /items Pen 6", "FAV /items/5", "FAV /items/6"] { #expect(h.ok(line)) }
        #expect(h.ids(0) == [1, 2, 5, 6])  // favourites: 2, 5, 6
        #expect(h.ok("FILTER favorites"))
        let o = h.run("MV /items/6 1")  // lands where the first favourite (2) stands
        #expect(o.reply.message == "6 is now #1 in cheap-items")
        #expect(h.ids(0) == [1, 6, 2, 5])
        #expect(o.event?.summary.hasPrefix("#2 in cheap-items: ") == true)  // its place in the whole section
        #expect(h.ok("MV /items/6 3"))  // after the last favourite
        #expect(h.ids(0) == [1, 2, 5, 6])
        #expect(h.error("MV /items/6 4") == .invalid)  // three favourites are shown
        #expect(h.error("MV /items/1 1") == .conflict)  // not shown while filtered
    }

    @Test func repricingMovesTheItemToTheEndOfItsNewBand() {
        let h = Harness()
        let o = h.run("SET /items/1 value=99 name=Gold")
        #expect(o.reply.message == "/items/1 in expensive-items")
        #expect(h.ids(0) == [2])
        #expect(h.ids(1) == [3, 4, 1])
        #expect(h.model.items.item(1)?.name == "Gold")
        #expect(h.error("SET /items/1 colour=red") == .invalid)
    }

    @Test func favouritesToggleAndCanBeSetExplicitly() {
        let h = Harness()
        #expect(h.run("FAV /items/1").reply.message == "favourite")
        #expect(h.run("FAV /items/1").reply.message == "not a favourite")
        #expect(h.run("FAV /items/1 off").reply.message == "not a favourite")
        #expect(h.run("FAV /items/1 on").event?.kind == "fav")
    }

    @Test func theFavouritesFilterIsPerViewerAndTakenWithNoFavouriteShowingNoItems() {
        let h = Harness()
        #expect(h.ok("FAV /items/2 off"))
        #expect(h.run("FILTER favorites").reply.message == "favorites (none yet: lists of items are empty)")
        #expect(
            h.rows("LS /items") == [
                "== Cheap Items (< $50): 0 favourites", "No Items", "== Expensive Items (≥ $50): 0 favourites",
                "No Items",
            ])
        #expect(h.ok("FILTER all"))
        #expect(h.ok("FAV /items/3"))
        #expect(h.ok("FILTER favorites"))
        #expect(
            h.rows("LS /items") == [
                "== Cheap Items (< $50): 0 favourites", "No Items",
                "== Expensive Items (≥ $50): 1 favourite", "3  Shiny Mac  $85  serial=9F21A0B3  ★",
            ])
        var other = Viewer()
        var rng = SplitMix64(seed: 1)
        let seen = h.model.apply(.ls(path: "/items", limit: nil, after: nil), viewer: &other, now: 0, rng: &rng)
        #expect(seen.reply.rows.count == 6)
    }

    @Test func bandsAreConfigurableAndReSectionExistingItems() {
        let h = Harness()
        let o = h.run(#"BANDS Cheap 20 "Mid Range" 70 Pricey"#)
        #expect(o.event?.kind == "bands")
        #expect(
            h.rows("LS /items") == [
                "== Cheap (< $20): 1 item", "1  Rusty Spork  $12  serial=5A3C9E01",
                "== Mid Range ($20 – $69): 2 items", "2  Fluffy Bear  $34  serial=0B77D2C4  ★",
                "4  Rusty Mac  $63  serial=44E8C17D",
                "== Pricey (≥ $70): 1 item", "3  Shiny Mac  $85  serial=9F21A0B3",
            ])
        #expect(h.error("BANDS A 50 B 40 C") == .syntax)
        #expect(h.error("BANDS A 50") == .syntax)
        #expect(h.ok("BANDS Everything"))
        #expect(h.ids(0) == [1, 2, 3, 4])
    }

    @Test func moreBandsThanTheLimitAreRefusedAndManyBandsWork() {
        let h = Harness()
        #expect(h.ok("ADD /items Big 180"))
        let many = (0..<99).map { "b\($0) \($0 * 2 + 1)" }.joined(separator: " ") + " last"
        #expect(h.ok("BANDS " + many))
        #expect(h.model.items.section(of: 5) == 90)
        let tooMany = (0..<100).map { "b\($0) \($0 + 1)" }.joined(separator: " ") + " last"
        #expect(h.error("BANDS " + tooMany) == .limit)
    }

    @Test func relativeOrderSurvivesABandChange() {
        let h = Harness()
        #expect(h.ok("MV /items/2 1"))
        #expect(h.ok("MV /items/4 1"))
        #expect(h.ok("BANDS All"))
        #expect(h.ids(0) == [2, 1, 4, 3])
    }

    @Test func listingPagesWithLimitAndAfter() {
        let h = Harness()
        for i in 0..<20 { #expect(h.ok("ADD /items n\(i) \(i)")) }
        let first = h.run("LS /items/cheap-items LIMIT 5")
        #expect(first.reply.rows.count == 6)
        #expect(first.reply.message == "5 items; more: LS /items/cheap-items LIMIT 5 AFTER 7")
        let second = h.run("LS /items/cheap-items LIMIT 5 AFTER 7")
        #expect(second.reply.rows.map(\.text).first == "8  n3  $3  serial=\(h.model.items.item(8)?.serial ?? "")")
        var seen: [Int] = []
        var after: String?
        while true {
            let o = h.run("LS /items LIMIT 7" + (after.map { " AFTER \($0)" } ?? ""))
            for r in o.reply.rows { if let id = r.json["id"]?.intValue { seen.append(Int(id)) } }
            guard let range = o.reply.message.range(of: "AFTER ") else { break }
            after = String(o.reply.message[range.upperBound...])
        }
        #expect(seen == h.ids(0) + h.ids(1))
    }

    @Test func pagingAfterAMissingItemIsNotFound() {
        let h = Harness()
        #expect(h.error("LS /items AFTER 999") == .notFound)
    }

    @Test func aMillionItemOperationStaysLocal() {
        var store = ItemStore()
        for i in 0..<20_000 { _ = store.add(name: "n", value: i % 100, serial: "S", created: 0) }
        let moved = store.move(10_000, to: 0)
        #expect(moved.count == 1)
        #expect(store.position(of: 10_000) == 0)
    }

    @Test func repeatedMovesIntoOneGapRenumberOrdersSafely() {
        var store = ItemStore()
        for _ in 0..<3 { _ = store.add(name: "n", value: 1, serial: "S", created: 0) }
        var renumbered = false
        for _ in 0..<200 {
            let last = store.page(section: 0, from: 2, limit: 1, favoritesOnly: false)[0].id
            if store.move(last, to: 1).count > 1 { renumbered = true }
        }
        #expect(renumbered)
        let ords = store.page(section: 0, from: 0, limit: 10, favoritesOnly: false).map(\.ord)
        #expect(ords == ords.sorted())
        #expect(Set(ords).count == 3)
    }
}
