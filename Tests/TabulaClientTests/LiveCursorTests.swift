import Testing
import TabulaClient
import TabulaProtocol

/// The live view's cursor stays on its entry when the copy changes.
@Suite struct LiveCursorTests {
    static func line(_ key: String, _ text: String = "") -> LiveLine { LiveLine(key: key, text: text, kind: .entry) }
    static let lines = [
        LiveLine(key: "section cheap", text: "== Cheap", kind: .header), line("/items/1"), line("/items/2"),
        LiveLine(key: "section dear", text: "== Dear", kind: .header), line("/items/4"),
    ]

    @Test func aRowAddedAboveTheCursorLeavesItOnTheSameItem() {
        let after = [Self.lines[0], Self.line("/items/9"), Self.lines[1], Self.lines[2], Self.lines[3], Self.lines[4]]
        #expect(LiveCursor.follow(2, from: Self.lines, to: after) == 3, "still on item 2, one row lower")
    }

    @Test func theCursorFollowsItsItemThroughAChangeOfItsRowAndAMove() {
        let moved = [
            Self.lines[0], Self.lines[2], Self.line("/items/1", "★ 1  Rusty Spork"), Self.lines[3], Self.lines[4],
        ]
        #expect(LiveCursor.follow(1, from: Self.lines, to: moved) == 2, "item 1, moved down and starred")
    }

    @Test func aRemovedEntryLeavesTheCursorWhereItWasWithinTheRows() {
        let gone = [Self.lines[0], Self.lines[1], Self.lines[3], Self.lines[4]]
        #expect(LiveCursor.follow(2, from: Self.lines, to: gone) == 2)
        #expect(LiveCursor.follow(4, from: Self.lines, to: Array(gone.prefix(2))) == 1)
        #expect(LiveCursor.follow(0, from: [], to: Self.lines) == 1, "a new place: its first row, not a header")
    }

    @Test func backFromAnEntryTheCursorIsOnThatEntrysRow() {
        #expect(LiveCursor.follow(0, from: [], to: Self.lines, arriving: "/items/4") == 4)
        #expect(LiveCursor.follow(0, from: [], to: Self.lines, arriving: "/items/99") == 1, "gone: the first row")
    }

    @Test func anOptionIsKnownByItsNumberWhateverItsMark() {
        let options = [
            LiveLine(key: "option 1", text: "[ ] #1  8", kind: .detail),
            LiveLine(key: "option 2", text: "[x] #2  16", kind: .detail),
        ]
        let reselected = [
            LiveLine(key: "option 1", text: "[x] #1  8", kind: .detail),
            LiveLine(key: "option 2", text: "[ ] #2  16", kind: .detail),
        ]
        #expect(LiveCursor.follow(1, from: options, to: reselected) == 1)
    }
}

/// What the live view keeps for a path.
@Suite struct LivePlaceTests {
    @Test func aPriceSectionAndAnItemAreKeptAsPartOfTheItems() {
        #expect(LivePlace.of("/items/cheap-items") == LivePlace(list: "/items", section: "cheap-items"))
        #expect(LivePlace.of("/items/12") == LivePlace(list: "/items", entry: "/items/12"))
    }

    @Test func aSettingIsAnEntryOfTheSettingsAndAnyOtherPathIsTakenForAList() {
        #expect(LivePlace.of("/settings/my-int") == LivePlace(list: "/settings", entry: "/settings/my-int"))
        #expect(LivePlace.of("/settings") == LivePlace(list: "/settings"))
        #expect(
            LivePlace.of("/settings/my-int/") == LivePlace(list: "/settings", entry: "/settings/my-int"),
            "a trailing slash names the same")
        #expect(LivePlace.of("/catalog/item-1") == LivePlace(list: "/catalog/item-1"))
        #expect(LivePlace.of("/") == LivePlace(list: "/"))
        #expect(LivePlace.entry(of: "/catalog/item-3") == LivePlace(list: "/catalog", entry: "/catalog/item-3"))
    }
}
