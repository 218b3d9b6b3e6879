import Testing
import TabulaModel
import TabulaProtocol

@Suite struct CatalogTests {
    @Test func theTreeDrillsDownToAnyDepth() {
        let h = Harness()
        #expect(h.rows("LS /catalog").first == "item-1/  Item 1  (2 children)")
        #expect(h.ok("CD /catalog/item-2/item-2.1"))
        #expect(h.rows("LS") == ["item-2.1.1  Item 2.1.1  [image: Image.jpg]"])
        #expect(h.ok("CD .."))
        #expect(h.run("PWD").reply.message == "/catalog/item-2")
    }

    @Test func leavesSayWhichDetailTheyShow() {
        let h = Harness()
        #expect(
            h.rows("SHOW /catalog/item-4") == ["title: Item 4", "view: tabs", "tabs: View One, View Two", "rev: 0"])
        #expect(h.rows("SHOW /catalog/item-1/item-1.2").contains("image: Image.jpg"))
        #expect(h.rows("SHOW /catalog/item-3").contains("view: text"))
    }

    @Test func nodesAreAddedUnderBranchesOnly() {
        let h = Harness()
        #expect(h.ok(#"ADD /catalog/item-1 "Deep One""#))
        #expect(h.ok(#"ADD /catalog/item-1/deep-one "Deeper" image pic.png"#))
        #expect(h.rows("LS /catalog/item-1/deep-one") == ["deeper  Deeper  [image: pic.png]"])
        #expect(h.error(#"ADD /catalog/item-3 "Child""#) == .invalid)
        #expect(h.error(#"ADD /catalog "X" video"#) == .invalid)
    }

    @Test func siblingsNeverShareATitleButTitlesWithOneNameGetDistinctPathNames() {
        let h = Harness()
        #expect(h.ok("ADD /catalog Twin"))
        #expect(
            h.rows("ADD /catalog twin") == ["ERR EXISTS /catalog/twin exists already, titled Twin; pick another title"])
        #expect(h.ok("ADD /catalog Twin!"))
        #expect(h.rows("LS /catalog").suffix(2) == ["twin/  Twin  (0 children)", "twin-2/  Twin!  (0 children)"])
        #expect(h.ok("ADD /catalog/item-1 Twin"), "the same title under another parent")
    }

    @Test func removingABranchRemovesItsSubtree() {
        let h = Harness()
        let o = h.run("RM /catalog/item-2")
        #expect(o.reply.message == "removed /catalog/item-2 (4 nodes)")
        #expect(h.error("LS /catalog/item-2/item-2.1") == .notFound)
    }

    @Test func unknownPathsSuggestTheNearestName() {
        let h = Harness()
        let o = h.run("LS /catalog/itme-1")
        #expect(o.reply.error?.message == "no /catalog/itme-1; did you mean /catalog/item-1?")
        #expect(h.run("LS /setings").reply.error?.message.contains("did you mean /settings?") == true)
    }
}
