import Testing
import TabulaClient

/// How the live view reads and draws the server's rows.
@Suite struct LiveRowTests {
    @Test func anItemRowIsReadIntoItsPartsWhateverItsNameHolds() {
        let p = LiveRow.item("12  Red  Chair  $42  serial=0A1B2C3D  ★")
        #expect(p?.id == "12" && p?.name == "Red  Chair" && p?.value == "$42" && p?.rest == "serial=0A1B2C3D" && p?.favorite == true)
        #expect(LiveRow.item("== Cheap Items (< $50): 2 items") == nil)
        #expect(LiveRow.item("[x] #2  16") == nil)
    }

    @Test func itemsAreDrawnWithTheStarFirstAndTheirColumnsAligned() {
        let rows = ["== Cheap Items (< $50): 2 items", "1  Rusty Spork  $12  serial=5A3C9E01", "12  Bear  $4  serial=0B77D2C4  ★"]
        #expect(LiveRow.display(rows) == [
            "== Cheap Items (< $50): 2 items",
            "   1  Rusty Spork  $12  serial=5A3C9E01",
            "★ 12  Bear          $4  serial=0B77D2C4",
        ])
    }

    @Test func aLongNameIsCutSoThePriceStaysInItsColumn() {
        let long = String(repeating: "x", count: 50)
        let shown = LiveRow.display(["1  \(long)  $12  serial=A"])[0]
        #expect(shown == "  1  " + String(repeating: "x", count: 31) + "…  $12  serial=A")
    }

    @Test func aLeafIsDrawnAsItsKind() {
        #expect(LiveRow.display(["title: Item 1.1", "view: tabs", "tabs: View One, View Two", "rev: 0"]) == ["Item 1.1", "(tabs view)", "[ View One ]  View Two", "rev: 0"])
        #expect(LiveRow.display(["title: Item 1.2", "view: image", "image: Image.jpg"]).last == "▣ Image.jpg")
        #expect(LiveRow.display(["title: T", "view: text", "text: A simple detail view."]).last == "A simple detail view.")
    }

    @Test func otherRowsAreDrawnAsTheyAre() {
        let rows = ["my-int/  My Int: 16", "title: not a leaf"]
        #expect(LiveRow.display(rows) == rows)
    }

    @Test func anItemsPositionCountsFromItsSectionsHeader() {
        #expect(LiveRow.position(of: 2, in: ["== A", "1  a  $1  s", "2  b  $2  s"]) == 2)
    }
}
