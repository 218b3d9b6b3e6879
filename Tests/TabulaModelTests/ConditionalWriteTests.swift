import Testing
import TabulaModel
import TabulaProtocol

/// `IF REV n` on every write verb, against the pure model: an entry unchanged since n takes
/// the write; one changed in between refuses it with CONFLICT and nothing changes; one
/// removed in between fails as the write would without the condition; a change to
/// something else in between refuses nothing.
@Suite struct ConditionalWriteTests {
    /// (the write, a change in between to what it compares, a change to something else, the
    /// removal of what it names, if it can be removed)
    typealias Case = (write: String, same: String, other: String, removal: String?)

    static let cases: [Case] = [
        (
            "SELECT /settings/my-int #3", "SELECT /settings/my-int #1", "SELECT /settings/my-string #2",
            "RM /settings/my-int"
        ),
        ("SET /items/2 value=77", "FAV /items/2", "FAV /items/1", "RM /items/2"),
        (
            "SET /catalog/item-2 title=Renamed", "SET /catalog/item-2 title=Other", "SET /catalog/item-1 title=Else",
            "RM /catalog/item-2"
        ),
        ("RM /items/2", "SET /items/2 name=Teddy", "SET /items/1 name=Spoon", "RM /items/2"),
        ("MV /items/1 2", "FAV /items/1", "FAV /items/3", "RM /items/1"),
        ("FAV /items/2", "SET /items/2 value=40", "SET /items/3 value=90", "RM /items/2"),
        ("ADD /items Lamp 30", "ADD /items Desk 80", "SELECT /settings/my-int #1", nil),
        (
            "ADD /catalog/item-1 Child", "ADD /catalog/item-1 Other", "ADD /catalog/item-2 Elsewhere",
            "RM /catalog/item-1"
        ),
        (
            "ADD /settings/my-int 128", "ADD /settings/my-int 256", "SELECT /settings/my-string #2",
            "RM /settings/my-int"
        ),
        ("ORDER margherita", "ORDER pesto", "SELECT /settings/my-int #1", nil),
        ("BANDS Low 40 High", "ADD /items Desk 80", "SELECT /settings/my-int #1", nil),
        (
            "SET /menu/pizza/margherita title=Marinara", "SET /menu/pizza/margherita title=Napoli",
            "SET /menu/pizza/pepperoni title=Diavola", "RM /menu/pizza/margherita"
        ),
    ]

    @Test(arguments: cases.indices)
    func aWriteUnchangedSinceItsRevisionApplies(_ k: Int) {
        let h = Harness()
        h.run(Self.cases[k].other)
        let n = h.model.revision
        let o = h.run(Self.cases[k].write + " IF REV \(n)")
        #expect(o.reply.error == nil, "\(Self.cases[k].write): \(o.reply.error?.description ?? "")")
        #expect(h.model.revision == n + 1)
    }

    @Test(arguments: cases.indices)
    func aWriteToSomethingChangedInBetweenIsRefusedAndChangesNothing(_ k: Int) {
        let h = Harness()
        let n = h.model.revision
        #expect(h.ok(Self.cases[k].same))
        let before = h.model.snapshot.mutations.count
        let shown = h.rows("LS /")
        let o = h.run(Self.cases[k].write + " IF REV \(n)")
        #expect(o.reply.error?.code == .conflict, "\(Self.cases[k].write) after \(Self.cases[k].same)")
        #expect(
            o.reply.error?.message.contains("changed at rev \(n + 1), after rev \(n); SHOW it and try again") == true,
            "\(o.reply.error?.message ?? "")")
        #expect(o.event == nil && h.model.revision == n + 1, "nothing changed")
        #expect(h.model.snapshot.mutations.count == before && h.rows("LS /") == shown)
    }

    @Test(arguments: cases.indices)
    func aChangeToSomethingElseInBetweenRefusesNothing(_ k: Int) {
        let h = Harness()
        let n = h.model.revision
        #expect(h.ok(Self.cases[k].other))
        let o = h.run(Self.cases[k].write + " IF REV \(n)")
        #expect(
            o.reply.error == nil,
            "\(Self.cases[k].write) after \(Self.cases[k].other): \(o.reply.error?.description ?? "")")
    }

    @Test(arguments: cases.indices.filter { cases[$0].removal != nil })
    func aWriteToSomethingRemovedInBetweenFailsAsWithoutTheCondition(_ k: Int) {
        let h = Harness(), plain = Harness()
        let n = h.model.revision
        h.run(Self.cases[k].removal!)
        plain.run(Self.cases[k].removal!)
        let o = h.run(Self.cases[k].write + " IF REV \(n)")
        let without = plain.run(Self.cases[k].write)
        #expect(
            o.reply.error != nil && o.reply.error?.code != .conflict,
            "\(Self.cases[k].write) after \(Self.cases[k].removal!)")
        #expect(o.reply.error == without.reply.error)
    }

    @Test func showEndsWithTheRevisionOfTheEntrysLastChange() {
        let h = Harness()
        #expect(h.rows("SHOW /items/2").last == "rev: 0", "unchanged since the model was made")
        h.run("FAV /items/2")
        h.run("FAV /items/1")
        #expect(h.rows("SHOW /items/2").last == "rev: 1")
        #expect(h.rows("SHOW /items/1").last == "rev: 2")
        #expect(h.rows("SHOW /settings/my-int").last == "rev: 0")
    }

    @Test func aModelLoadedFromStorageCountsEveryEntryAsChangedAtItsRevisionAtMost() {
        let h = Harness()
        h.run("FAV /items/2")
        h.run("FAV /items/1")
        let loaded = Harness(Model(snapshot: h.model.snapshot))
        #expect(
            loaded.rows("SHOW /items/3").last == "rev: 2", "not changed since the load: at most the load's revision")
        #expect(
            loaded.error("FAV /items/3 IF REV 1") == .conflict,
            "an older condition is refused: a conflict too many, never an update lost")
        #expect(loaded.ok("FAV /items/3 IF REV 2"))
    }

    @Test func theConditionIsReadOnlyAtTheEndAndOnlyOnWrites() {
        #expect(throws: Never.self) {
            guard case .success(let r)? = RequestParser.parse(Array("ADD /items \"Lamp IF REV 3\" 30 IF REV 9".utf8))
            else { throw TabulaError(.syntax, "no parse") }
            #expect(r.ifRev == 9)
            #expect(r.command == .add(path: "/items", args: ["Lamp IF REV 3", "30"]))
        }
        guard case .failure(let f)? = RequestParser.parse(Array("LS /items IF REV 3".utf8)) else {
            Issue.record("LS took IF REV"); return
        }
        #expect(f.error.message == "LS changes nothing, so it takes no IF REV; only a write does")
        guard case .failure(let g)? = RequestParser.parse(Array("SELECT /settings/my-int #2 IF REV x".utf8)) else {
            Issue.record("IF REV x parsed"); return
        }
        #expect(g.error.code == .syntax)
        guard case .failure(let a)? = RequestParser.parse(Array("SELECT /settings/my-int #2 #3".utf8)) else {
            Issue.record("three words parsed"); return
        }
        #expect(a.error.message.contains("too many arguments"), "the condition is not counted among the arguments")
    }
}

@Suite struct RowRevisionTests {
    func revisions(_ h: Harness, _ line: String) -> [Int64?] {
        h.run(line).reply.rows.map { row in
            guard case .object(let pairs) = row.json.resolved else { return nil }
            guard case .int(let r)? = pairs.first(where: { $0.0 == "rev" })?.1 else { return nil }
            return r
        }
    }

    @Test func aViewerThatReadsJSONIsGivenEachListedEntrysRevision() {
        let h = Harness()
        h.viewer.wantsRevisions = true
        h.run("FAV /items/2")
        h.run("SELECT /settings/my-int #1")
        #expect(revisions(h, "LS /settings") == [0, 2], "my-string unchanged, my-int changed at 2")
        #expect(
            revisions(h, "LS /items/cheap-items") == [nil, 0, 1],
            "the section's header, Rusty Spork unchanged, Fluffy Bear favourited at 1")
    }

    @Test func aTextReaderIsGivenNoRevisionsAndPaysForNone() {
        let h = Harness()
        h.run("FAV /items/2")
        #expect(revisions(h, "LS /items/cheap-items") == [nil, nil, nil])
        #expect(
            h.rows("LS /items/cheap-items") == [
                "== Cheap Items (< $50): 2 items", "1  Rusty Spork  $12  serial=5A3C9E01",
                "2  Fluffy Bear  $34  serial=0B77D2C4",
            ])
    }
}
