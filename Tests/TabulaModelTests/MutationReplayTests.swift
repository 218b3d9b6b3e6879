import Testing
import TabulaModel
import TabulaProtocol

/// A model that only applies the stored mutations of another's writes (what a second server
/// sharing a store will do, and what a load does) must end up identical to it.
@Suite struct MutationReplayTests {
    /// Runs `lines` on a writer and replays each change's mutations on a follower.
    @discardableResult
    static func replay(_ lines: [String], writer: inout Model, follower: inout Model) -> [Outcome] {
        var outcomes: [Outcome] = []
        var viewer = Viewer()
        var rng = SplitMix64(seed: 7)
        for line in lines {
            guard case .success(let r)? = RequestParser.parse(Array(line.utf8)) else { continue }
            let out = writer.apply(r.command, viewer: &viewer, now: 1_700_000_000, rng: &rng)
            if out.event == nil { #expect(out.mutations.isEmpty, "\(line) changed nothing but stores something") }
            follower.apply(out.mutations, revision: writer.revision)
            outcomes.append(out)
        }
        return outcomes
    }

    @Test func aFollowerApplyingStoredMutationsMatchesTheWriterOnRandomCommands() {
        var writer = SeedData.model(now: 1_700_000_000)
        var follower = Model(snapshot: writer.snapshot)
        var pick = SplitMix64(seed: 99)
        var lines: [String] = []
        for _ in 0..<6_000 {
            var line = RandomCommandsTests.verbs.randomElement(using: &pick) ?? "LS"
            let n = Int.random(in: 0...4, using: &pick)
            if n > 0 { line += " " + (RandomCommandsTests.paths.randomElement(using: &pick) ?? "/") }
            for _ in 1..<max(1, n) { line += " " + (RandomCommandsTests.words.randomElement(using: &pick) ?? "x") }
            lines.append(line)
        }
        Self.replay(lines, writer: &writer, follower: &follower)
        #expect(writer.revision > 100)
        #expect(follower.revision == writer.revision)
        #expect(follower.snapshot == writer.snapshot)
        #expect(RandomCommandsTests.fingerprint(follower) == RandomCommandsTests.fingerprint(writer))
    }

    @Test func movesThatRenumberEveryItemReplayInTheSameOrder() {
        var writer = SeedData.model(now: 0)
        var follower = Model(snapshot: writer.snapshot)
        // Moving two items in turn to the front halves the gap between keys until they run
        // out and every item is renumbered, which the follower receives item by item.
        let lines =
            ["ADD /items a 1", "ADD /items b 2", "ADD /items c 3"]
            + (0..<120).map { "MV /items/\($0 % 2 == 0 ? 5 : 6) 2" }
        let outcomes = Self.replay(lines, writer: &writer, follower: &follower)
        #expect(outcomes.contains { $0.mutations.count > 2 }, "no move renumbered")
        #expect(follower.snapshot == writer.snapshot)
        var v = Viewer()
        #expect(
            follower.read(.ls(path: "/items", limit: nil, after: nil), viewer: &v)?.rows.map(\.text)
                == writer.read(.ls(path: "/items", limit: nil, after: nil), viewer: &v)?.rows.map(\.text))
    }

    @Test func removingOneChildOfABranchStoresItsRemovalAloneNotItsSiblings() {
        var writer = SeedData.model(now: 0)
        var follower = Model(snapshot: writer.snapshot)
        let adds = ["ADD /catalog wide"] + (0..<50).map { "ADD /catalog/wide c\($0)" }
        Self.replay(adds, writer: &writer, follower: &follower)
        let removal = Self.replay(["RM /catalog/wide/c20"], writer: &writer, follower: &follower)
        #expect(removal.first?.mutations.count == 1)
        #expect(follower.snapshot == writer.snapshot)
    }

    @Test func aBranchWithGapsLeftByRemovalsKeepsItsOrderOnAFollowerAndThroughASnapshot() {
        var writer = SeedData.model(now: 0)
        var follower = Model(snapshot: writer.snapshot)
        let lines =
            ["ADD /catalog b"] + (0..<12).map { "ADD /catalog/b n\($0)" }
            + ["RM /catalog/b/n3", "RM /catalog/b/n0", "ADD /catalog/b late", "SET /catalog/b/n7 title=Seven"]
            + ["RM /catalog/b/n11", "ADD /catalog/b later", "SET /catalog/b/late title=Late"]
        Self.replay(lines, writer: &writer, follower: &follower)
        let reloaded = Model(snapshot: writer.snapshot)
        var v = Viewer()
        let expected = ["n1", "n2", "n4", "n5", "n6", "n7", "n8", "n9", "n10", "late", "later"].map { $0 + "/" }
        let ls = Command.ls(path: "/catalog/b", limit: nil, after: nil)
        for model in [writer, follower, reloaded] {
            #expect(model.read(ls, viewer: &v)?.rows.map { String($0.text.prefix { $0 != " " }) } == expected)
        }
    }

    @Test func aSnapshotRebuildsTheSameModel() {
        var writer = SeedData.model(now: 0)
        var scratch = Model()
        Self.replay(
            [
                "BANDS Low 10 Mid 60 High", "ADD /catalog/item-1 Deep tabs A B", "ORDER pesto", "ADD /menu Drinks",
                "ADD /menu/drinks Cola", "FAV /items/3",
            ], writer: &writer, follower: &scratch)
        let copy = Model(snapshot: writer.snapshot)
        #expect(copy.snapshot == writer.snapshot)
        #expect(RandomCommandsTests.fingerprint(copy) == RandomCommandsTests.fingerprint(writer))
    }
}

/// A store that keeps nothing asks for no mutations, and the model then builds none.
@Suite struct RecordsMutationsTests {
    @Test func aModelThatRecordsNothingReturnsNoMutationsButTheSameReplyAndEvent() {
        var recording = SeedData.model(now: 0)
        var silent = SeedData.model(now: 0)
        silent.recordsMutations = false
        for line in [
            "SELECT /settings/my-int 32", "ADD /items x 5", "FAV /items/1", "ORDER pesto", "ADD /menu Drinks",
            "ADD /catalog New", "BANDS A 10 B", "RM /orders/1",
        ] {
            guard case .success(let r)? = RequestParser.parse(Array(line.utf8)) else { continue }
            var v1 = Viewer(), v2 = Viewer()
            var rng1 = SplitMix64(seed: 1), rng2 = SplitMix64(seed: 1)
            let a = recording.apply(r.command, viewer: &v1, now: 0, rng: &rng1)
            let b = silent.apply(r.command, viewer: &v2, now: 0, rng: &rng2)
            #expect(!a.mutations.isEmpty, "\(line)")
            #expect(b.mutations.isEmpty, "\(line)")
            #expect(a.reply == b.reply && a.event == b.event, "\(line)")
        }
        #expect(silent.snapshot == recording.snapshot)
    }
}
