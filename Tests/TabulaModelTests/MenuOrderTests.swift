import Testing
import TabulaModel
import TabulaProtocol

@Suite struct MenuOrderTests {
    @Test func theMenuHasSectionsOfEntries() {
        let h = Harness()
        #expect(h.rows("LS /menu").first == "pizza/  Pizza  (3 entries)")
        #expect(
            h.rows("LS /menu/pizza") == [
                "margherita  Margherita", "pepperoni  Pepperoni", "quattro-formaggi  Quattro Formaggi",
            ])
    }

    @Test func orderingAppendsToTheLiveOrderListWithAnEvent() {
        let h = Harness()
        let o = h.run("ORDER /menu/pizza/margherita")
        #expect(o.event?.kind == "order")
        #expect(o.event?.path == "/orders/1")
        #expect(h.ok("ORDER tiramisu"))
        let rows = h.rows("LS /orders")
        #expect(rows.count == 2)
        #expect(rows.first?.hasPrefix("1  Margherita  /menu/pizza/margherita  ") == true)
        #expect(rows.last?.hasPrefix("2  Tiramisu  /menu/dessert/tiramisu  ") == true)
    }

    @Test func completingAnOrderOffersEachEntryOnce() {
        let h = Harness()
        #expect(h.ok("CD /menu/pizza"))
        #expect(h.rows("COMPLETE ORDER marg") == ["margherita"])
    }

    @Test func completingAnAmbiguousEntryOffersItsFullPaths() {
        let h = Harness()
        #expect(h.ok("ADD /menu Specials"))
        #expect(h.ok("ADD /menu/specials Margherita"))
        #expect(h.rows("COMPLETE ORDER marg") == [])
        #expect(
            h.rows("COMPLETE ORDER ").filter { $0.contains("margherita") } == [
                "/menu/pizza/margherita", "/menu/specials/margherita",
            ])
    }

    @Test func orderingSomethingNotOnTheMenuSuggests() {
        let h = Harness()
        let o = h.run("ORDER margarita")
        #expect(o.reply.error?.code == .notFound)
        #expect(o.reply.error?.message.contains("did you mean margherita?") == true)
        #expect(h.error("ORDER /menu/pizza") == .invalid)
    }

    @Test func ordersCanBeRemovedAndCleared() {
        let h = Harness()
        for _ in 0..<3 { #expect(h.ok("ORDER pesto")) }
        #expect(h.ok("RM /orders/2"))
        #expect(h.run("LS /orders").reply.message == "2 of 2")
        let c = h.run("RM /orders")
        #expect(c.event?.kind == "clear")
        #expect(h.run("LS /orders").reply.rows.isEmpty)
        #expect(h.run("ORDER pesto").event?.path == "/orders/4")
    }

    @Test func menuSectionsAndEntriesCanBeAddedRenamedAndRemoved() {
        let h = Harness()
        #expect(h.ok("ADD /menu Drinks"))
        #expect(h.ok("ADD /menu/drinks Lemonade"))
        #expect(h.ok(#"SET /menu/drinks/lemonade title="Pink Lemonade""#))
        #expect(h.rows("LS /menu/drinks") == ["lemonade  Pink Lemonade"])
        #expect(h.ok("ORDER lemonade"))
        #expect(h.ok("RM /menu/drinks"))
        #expect(h.error("ORDER lemonade") == .notFound)
        #expect(h.error("ADD /orders x") == .invalid)
    }
}

@Suite struct OrderBySectionNameTests {
    @Test func orderingASectionsBareNameSaysItIsASectionAndWhereItsEntriesAre() {
        let h = Harness()
        let e = h.run("ORDER pizza").reply.error
        #expect(e?.code == .invalid)
        #expect(
            e?.message
                == "ORDER takes a menu entry such as /menu/pizza/margherita; /menu/pizza is not one but a section of the menu; LS /menu/pizza lists its entries"
        )
        #expect(h.run("ORDER nope").reply.error?.code == .notFound)
        #expect(h.ok("ORDER margherita"))
    }
}
