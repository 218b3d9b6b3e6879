import Testing
import TabulaClient
import TabulaProtocol

/// How the live view draws its copy of a list, from the rows' JSON.
@Suite struct LiveRowTests {
    static func replica(_ path: String, _ rows: [(String?, String)]) -> ListReplica {
        var r = ListReplica(path: path)
        r.beginSnapshot()
        for (p, json) in rows { r.takeRow(path: p, value: JSONParser.parse(json)!) }
        r.synced(1)
        return r
    }

    static let items = replica(
        "/items",
        [
            (nil, #"{"type":"section","name":"cheap-items","title":"Cheap Items","range":"< $50","count":2}"#),
            (
                "/items/1",
                #"{"type":"item","id":1,"name":"Rusty Spork","value":12,"serial":"5A3C9E01","favorite":false,"rev":3}"#
            ),
            ("/items/12", #"{"type":"item","id":12,"name":"Bear","value":4,"serial":"0B77D2C4","favorite":true}"#),
            (nil, #"{"type":"section","name":"expensive-items","title":"Expensive Items","range":"≥ $50","count":0}"#),
            (nil, #"{"type":"empty","text":"No Items"}"#),
        ])

    @Test func itemsAreDrawnWithTheStarFirstAndTheirColumnsAlignedUnderTheirSectionsHeader() {
        #expect(
            LiveRow.lines(of: Self.items).map(\.text) == [
                "== Cheap Items (< $50): 2 items",
                "   1  Rusty Spork  $12  serial=5A3C9E01",
                "★ 12  Bear          $4  serial=0B77D2C4",
                "== Expensive Items (≥ $50): 0 items",
                "No Items",
            ])
    }

    @Test func anEntrysLineIsKeyedByItsPathAndCarriesItsRevision() {
        let line = LiveRow.lines(of: Self.items)[1]
        #expect(line.key == "/items/1" && line.path == "/items/1" && line.rev == 3 && line.kind == .entry)
    }

    @Test func underTheFavouritesFilterASectionCountsItsFavouritesAndAnEmptyOneSaysNoItems() {
        #expect(
            LiveRow.lines(of: Self.items, favoritesOnly: true).map(\.text) == [
                "== Cheap Items (< $50): 1 favourite", "★ 12  Bear  $4  serial=0B77D2C4",
                "== Expensive Items (≥ $50): 0 favourites", "No Items",
            ])
    }

    @Test func oneSectionCanBeShownAlone() {
        #expect(
            LiveRow.lines(of: Self.items, section: "expensive-items").map(\.text) == [
                "== Expensive Items (≥ $50): 0 items", "No Items",
            ])
    }

    @Test func aLongNameIsCutSoThePriceStaysInItsColumn() {
        let long = String(repeating: "x", count: 50)
        let r = Self.replica(
            "/items", [("/items/1", #"{"type":"item","id":1,"name":"\#(long)","value":12,"serial":"A"}"#)])
        #expect(LiveRow.lines(of: r)[0].text == "  1  " + String(repeating: "x", count: 31) + "…  $12  serial=A")
    }

    @Test func otherListsRowsReadAsLSWritesThem() {
        let r = Self.replica(
            "/",
            [
                ("/settings/my-int", #"{"name":"my-int","title":"My Int","row":"My Int: 16"}"#),
                ("/catalog/item-1", #"{"type":"node","name":"item-1","title":"Item 1","view":"branch","children":2}"#),
                ("/catalog/item-3", #"{"type":"node","name":"item-3","title":"Item 3","view":"text","text":"t"}"#),
                ("/menu/pizza", #"{"type":"menu-section","name":"pizza","title":"Pizza","entries":3}"#),
                ("/menu/pizza/margherita", #"{"type":"menu-entry","name":"margherita","title":"Margherita"}"#),
                (
                    "/orders/7",
                    #"{"type":"order","id":7,"entry":"/menu/pizza/margherita","title":"Margherita","created":"2026-12-03T18:20:52Z"}"#
                ),
                ("/items", #"{"name":"items","count":4}"#),
            ])
        #expect(
            LiveRow.lines(of: r).map(\.text) == [
                "my-int/  My Int: 16", "item-1/  Item 1  (2 children)", "item-3  Item 3  [text]",
                "pizza/  Pizza  (3 entries)",
                "margherita  Margherita", "7  Margherita  /menu/pizza/margherita  2026-12-03T18:20:52Z", "items/  4",
            ])
    }

    static func entry(_ path: String, _ json: String) -> ListReplica.Entry {
        replica(LivePlace.parent(path), [(path, json)]).entry(path)!
    }

    @Test func aSettingOpensAsItsOptionsWithTheSelectedOneMarked() {
        let e = Self.entry(
            "/settings/my-int", #"{"name":"my-int","type":"int","options":[8,16,32],"selected":2,"rev":5}"#)
        let lines = LiveRow.detail(of: e, width: 80)
        #expect(lines.map(\.text) == ["[ ] #1  8", "[x] #2  16", "[ ] #3  32"])
        #expect(lines.map(\.key) == ["option 1", "option 2", "option 3"] && lines.allSatisfy { $0.rev == 5 })
    }

    @Test func aLeafOpensAsItsKind() {
        let tabs = Self.entry(
            "/catalog/a", #"{"type":"node","title":"Item 1.1","view":"tabs","tabs":["View One","View Two"]}"#)
        #expect(
            LiveRow.detail(of: tabs, width: 80).map(\.text) == [
                "Item 1.1", "", "[ View One ]  View Two", "", "View One",
            ])
        #expect(
            LiveRow.detail(of: tabs, width: 80, tab: 1).map(\.text).suffix(3) == [
                "View One  [ View Two ]", "", "View Two",
            ])
        let image = Self.entry("/catalog/b", #"{"type":"node","title":"Item 1.2","view":"image","image":"Image.jpg"}"#)
        #expect(LiveRow.detail(of: image, width: 80).last?.text == "▣ Image.jpg")
        let text = Self.entry(
            "/catalog/c", #"{"type":"node","title":"T","view":"text","text":"one two three four five six"}"#)
        #expect(LiveRow.detail(of: text, width: 10).map(\.text) == ["T", "", "one two", "three four", "five six"])
    }

    @Test func anyOtherEntryOpensAsItsFields() {
        let order = Self.entry("/orders/7", #"{"type":"order","id":7,"title":"Margherita"}"#)
        #expect(LiveRow.detail(of: order, width: 80).map(\.text) == ["type: order", "id: 7", "title: Margherita"])
    }
}
