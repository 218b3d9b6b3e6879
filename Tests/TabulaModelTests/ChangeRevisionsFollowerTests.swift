import Testing
import TabulaModel
import TabulaProtocol

/// A model notes its own writes' revisions by the entry each write names
/// (`Outcome.entry`); a follower (a cluster's other node) notes the same events by their
/// paths. Random commands from the protocol's grammar, on every list: after each change,
/// every path either has named is at the same revision in both. A failure names its seed
/// and the command.
@Suite struct ChangeRevisionsFollowerTests {
    @Test(arguments: 1...8)
    func aFollowerNotingTheEventsByPathKeepsTheWritersRevisions(seed: UInt64) {
        var model = SeedData.model(now: 1_700_000_000)
        var follower = ChangeRevisions(base: model.changes.base)
        var viewer = Viewer()
        var rng = SplitMix64(seed: seed)
        var pick = SplitMix64(seed: seed &+ 1000)
        var universe = Set(RandomCommandsTests.paths.filter { $0.hasPrefix("/") })
        for _ in 0..<2_000 {
            var line = RandomCommandsTests.verbs.randomElement(using: &pick) ?? "LS"
            let n = Int.random(in: 0...4, using: &pick)
            if n > 0 { line += " " + (RandomCommandsTests.paths.randomElement(using: &pick) ?? "/") }
            for _ in 1..<max(1, n) { line += " " + (RandomCommandsTests.words.randomElement(using: &pick) ?? "x") }
            guard case .success(let r)? = RequestParser.parse(Array(line.utf8)) else { continue }
            let outcome = model.apply(r.command, viewer: &viewer, now: 1_700_000_000, rng: &rng)
            guard let event = outcome.event else { continue }
            follower.note(event)
            universe.insert(event.path)
            for p in universe where model.changes.revision(of: p) != follower.revision(of: p) {
                Issue.record(
                    "seed \(seed), after \(line): \(p) is at \(model.changes.revision(of: p)) on the writer, \(follower.revision(of: p)) on the follower"
                )
                return
            }
        }
    }
}
