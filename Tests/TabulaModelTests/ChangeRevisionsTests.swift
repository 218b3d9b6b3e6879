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
        let r = noted(
            [(3, "set", "/catalog/a/b"), (4, "set", "/catalog/a"), (5, "set", "/catalog/c"), (6, "rm", "/catalog/a")],
            base: 1)
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

    /// Entries named by a number are kept by that number: checked against a dictionary by
    /// path over random changes (numbers, names, a leading zero, removals, clears).
    @Test func entriesNamedByANumberReadAsTheSameEntriesKeptByPath() {
        var r = ChangeRevisions(base: 3)
        var oracle: [String: UInt64] = [:]
        var g = SplitMix64(seed: 46)
        let names = [
            "/items/0", "/items/007", "/items/12", "/items/x", "/orders/5", "/orders/4321", "/orders/1234567890",
            "/catalog/12",
        ]
        for rev in UInt64(4)..<600 {
            let path = g.next() % 5 == 0 ? "/items/\(g.next() % 3_000)" : names[Int(g.next() % UInt64(names.count))]
            switch g.next() % 10 {
            case 0:
                r.note(Event(rev: rev, kind: "rm", path: path, summary: "", value: .null))
                oracle[path] = nil
            case 1:
                let list = "/" + (path.split(separator: "/").first.map(String.init) ?? "items")
                r.note(Event(rev: rev, kind: "clear", path: list, summary: "", value: .null))
                oracle = oracle.filter { !$0.key.hasPrefix(list + "/") }
            default:
                r.note(Event(rev: rev, kind: "set", path: path, summary: "", value: .null))
                oracle[path] = rev
            }
            for p in names + ["/items/\(g.next() % 3_000)"] {
                #expect(r.revision(of: p) == oracle[p] ?? 3, "\(p) after rev \(rev)")
            }
        }
    }
}
