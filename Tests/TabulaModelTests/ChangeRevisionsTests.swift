import Testing
import TabulaModel
import TabulaProtocol

/// What each kind of change stamps in `ChangeRevisions`, the table `IF REV` compares with:
/// its own entry always; every list above it when it changes membership; and a removal
/// forgets what it removed.
@Suite struct ChangeRevisionsTests {
    func noted(_ changes: [(UInt64, String, String)], base: UInt64 = 0) -> ChangeRevisions {
        var r = ChangeRevisions(base: base)
        for (rev, kind, path) in changes { r.note(Event(rev: rev, kind: kind, path: path, summary: "", value: .null)) }
        return r
    }

    @Test func aChangeInPlaceStampsItsEntryAndNoListAboveIt() {
        let r = noted([(5, "select", "/settings/my-int")], base: 2)
        #expect(r.revision(of: "/settings/my-int") == 5)
        #expect(r.revision(of: "/settings") == 2)
        #expect(r.revision(of: "/settings/my-string") == 2)
    }

    @Test(arguments: ["add", "mv", "order", "bands"])
    func aChangeOfMembershipStampsEveryListAboveIt(_ kind: String) {
        let r = noted([(7, kind, "/catalog/a/b")], base: 1)
        #expect(r.revision(of: "/catalog/a/b") == 7)
        #expect(r.revision(of: "/catalog/a") == 7)
        #expect(r.revision(of: "/catalog") == 7)
        #expect(r.revision(of: "/items") == 1)
    }

    @Test func aRemovalForgetsTheEntryAndWhatIsUnderItAndStampsTheListsAbove() {
        let r = noted([(3, "set", "/catalog/a/b"), (4, "set", "/catalog/a"), (5, "set", "/catalog/c"), (6, "rm", "/catalog/a")], base: 1)
        #expect(r.revision(of: "/catalog/a/b") == 1)
        #expect(r.revision(of: "/catalog/a") == 1)
        #expect(r.revision(of: "/catalog") == 6)
        #expect(r.revision(of: "/catalog/c") == 5)
    }

    @Test func clearingATopLevelListForgetsAllItsEntriesAndStampsTheList() {
        let r = noted([(3, "add", "/orders/1"), (4, "set", "/items/2"), (5, "clear", "/orders")], base: 1)
        #expect(r.revision(of: "/orders/1") == 1)
        #expect(r.revision(of: "/orders") == 5)
        #expect(r.revision(of: "/items/2") == 4)
    }

    @Test func aPathUnderNoTopLevelListIsKeptAsExactly() {
        let r = noted([(9, "add", "/elsewhere/x"), (10, "set", "/elsewhere/y")], base: 1)
        #expect(r.revision(of: "/elsewhere/x") == 9)
        #expect(r.revision(of: "/elsewhere") == 9)
        #expect(r.revision(of: "/elsewhere/y") == 10)
        #expect(r.revision(of: "/settings") == 1)
    }

    @Test func aTopLevelNameThatOnlyStartsLikeAListIsAnotherList() {
        let r = noted([(4, "set", "/itemsx/1"), (5, "set", "/item/1")], base: 1)
        #expect(r.revision(of: "/itemsx/1") == 4)
        #expect(r.revision(of: "/item/1") == 5)
        #expect(r.revision(of: "/items/1") == 1)
    }
}
