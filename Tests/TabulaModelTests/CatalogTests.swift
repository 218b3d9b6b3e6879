import Foundation
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
        #expect(h.rows("SHOW /catalog/item-4") == ["title: Item 4", "view: tabs", "tabs: View One, View Two"])
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

    @Test func sameTitlesGetDistinctPathNames() {
        let h = Harness()
        #expect(h.ok("ADD /catalog Twin"))
        #expect(h.ok("ADD /catalog Twin"))
        #expect(h.rows("LS /catalog").suffix(2) == ["twin/  Twin  (0 children)", "twin-2/  Twin  (0 children)"])
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

    @Test func importReadsTheSeedsPropertyListShape() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>Rows</key><array>
              <dict><key>Title</key><string>Item 1</string><key>Children</key><array>
                <dict><key>Title</key><string>Item 1.1</string><key>View</key><integer>1</integer></dict>
                <dict><key>Title</key><string>Item 1.2</string><key>View</key><integer>2</integer></dict>
              </array></dict>
              <dict><key>Title</key><string>Item 3</string><key>View</key><integer>3</integer></dict>
            </array></dict></plist>
            """
        let drafts = try CatalogImport.parse(Array(plist.utf8)).get()
        #expect(drafts.count == 2)
        #expect(drafts[0].children.map(\.view) == [.tabs(["View One", "View Two"]), .image("Image.jpg")])
        #expect(drafts[1].view == .text("Item 3"))
        #expect(drafts[0].children[0].addArguments == ["Item 1.1", "tabs", "View One", "View Two"])
    }

    @Test func importReadsJSONWithWordsForViews() throws {
        let json = #"[{"title":"A","children":[{"title":"B","view":"image","image":"b.png"}]}]"#
        let drafts = try CatalogImport.parse(Array(json.utf8)).get()
        #expect(drafts[0].children[0].view == .image("b.png"))
    }

    @Test func importRefusesABadViewNumberSayingWhere() {
        let json = #"[{"Title":"A","View":7}]"#
        guard case .failure(let e) = CatalogImport.parse(Array(json.utf8)) else { Issue.record("should fail"); return }
        #expect(e.message.contains("View 7"))
    }

    @Test func importRefusesSomethingThatIsNotACatalog() {
        #expect((try? CatalogImport.parse(Array("hello".utf8)).get()) == nil)
        #expect((try? CatalogImport.parse(Array("[1,2]".utf8)).get()) == nil)
    }
}
