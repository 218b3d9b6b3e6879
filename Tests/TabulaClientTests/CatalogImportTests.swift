import Testing
import TabulaModel
import TabulaProtocol

@testable import TabulaClient

/// Catalog files (seed 001's property list, or JSON) read by `tabula import`.
@Suite struct CatalogImportTests {
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
