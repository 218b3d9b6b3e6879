import Testing
import TabulaModel
import TabulaProtocol

/// A write that would leave everything as it is answers OK but makes no event, stores
/// nothing and does not move the revision.
@Suite struct NoChangeTests {
    static func expectNoChange(_ line: String, after setup: [String] = []) {
        let h = Harness()
        for s in setup { #expect(h.ok(s), "\(s)") }
        let before = h.model.revision
        let o = h.run(line)
        #expect(o.reply.error == nil, "\(line): \(o.reply.error?.message ?? "")")
        #expect(o.event == nil, "\(line) made an event")
        #expect(o.mutations.isEmpty, "\(line) stored something")
        #expect(h.model.revision == before, "\(line) moved the revision")
    }

    @Test func selectingTheSelectedOptionChangesNothing() { Self.expectNoChange("SELECT /settings/my-int 16") }
    @Test func favouritingAFavouriteChangesNothing() { Self.expectNoChange("FAV /items/2 on") }
    @Test func unfavouritingANonFavouriteChangesNothing() { Self.expectNoChange("FAV /items/1 off") }
    @Test func movingAnItemToWhereItIsChangesNothing() { Self.expectNoChange("MV /items/1 1") }
    @Test func clearingAnEmptyOrderListChangesNothing() { Self.expectNoChange("RM /orders") }
    @Test func settingATitleToItselfChangesNothing() { Self.expectNoChange("SET /menu/pizza title=Pizza") }
    @Test func settingAnItemToItsOwnValuesChangesNothing() {
        Self.expectNoChange("SET /items/1 name=\"Rusty Spork\" value=12")
    }
    @Test func settingTheBandsThereAreChangesNothing() {
        Self.expectNoChange("BANDS \"Cheap Items\" 50 \"Expensive Items\"")
    }

    @Test func aRealChangeStillMovesTheRevisionByOne() {
        let h = Harness()
        #expect(h.run("SELECT /settings/my-int 32").event?.rev == 1)
        #expect(h.run("RM /orders").event == nil)
        #expect(h.run("ORDER pesto").event?.rev == 2)
        #expect(h.run("RM /orders").event?.rev == 3)
    }
}
