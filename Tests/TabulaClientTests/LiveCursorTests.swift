import Testing
import TabulaClient

/// The live view's cursor stays on its entry when the rows are listed again.
@Suite struct LiveCursorTests {
    static let rows = ["== Cheap Items (< $50): 2 items", "1  Rusty Spork  $12  serial=5A3C9E01", "2  Bear  $4  serial=0B77D2C4  ★", "== Expensive Items (≥ $50): 1 item", "4  Lamp  $70  serial=11"]

    @Test func aRowAddedAboveTheCursorLeavesItOnTheSameItem() {
        let after = [Self.rows[0], "9  New Thing  $3  serial=99", Self.rows[1], Self.rows[2], Self.rows[3], Self.rows[4]]
        #expect(LiveCursor.follow(2, from: Self.rows, to: after) == 3, "still on item 2, one row lower")
    }

    @Test func theCursorFollowsItsItemThroughAChangeOfItsRowAndAMove() {
        let starred = [Self.rows[0], "2  Bear  $4  serial=0B77D2C4", "1  Rusty Spork  $12  serial=5A3C9E01  ★", Self.rows[3], Self.rows[4]]
        #expect(LiveCursor.follow(1, from: Self.rows, to: starred) == 2, "item 1, moved down and starred")
    }

    @Test func aRemovedEntryLeavesTheCursorWhereItWasWithinTheRows() {
        let gone = [Self.rows[0], Self.rows[1], Self.rows[3], Self.rows[4]]
        #expect(LiveCursor.follow(2, from: Self.rows, to: gone) == 2)
        #expect(LiveCursor.follow(4, from: Self.rows, to: Array(gone.prefix(2))) == 1)
        #expect(LiveCursor.follow(0, from: [], to: Self.rows) == 0)
    }

    @Test func optionsAndListRowsAreKnownByWhatNamesThem() {
        let options = ["[ ] #1  8", "[x] #2  16", "[ ] #3  32"]
        let reselected = ["[ ] #1  8", "[ ] #2  16", "[x] #3  32"]
        #expect(LiveCursor.follow(1, from: options, to: reselected) == 1, "option 2, whose mark changed")
        #expect(LiveCursor.follow(1, from: ["item-1/  Item 1", "item-2/  Item 2"], to: ["item-0/  New", "item-1/  Item 1", "item-2/  Item 2 (renamed)"]) == 2)
    }
}
