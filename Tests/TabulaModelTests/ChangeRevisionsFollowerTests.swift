import Testing
import TabulaModel
import TabulaProtocol

/// A model notes its own writes' revisions by the entry each write names
/// (`Outcome.entry`); a follower (a cluster's other node) notes the same events by their
/// paths. Random commands from the protocol's grammar, on every list: after each change,
/// every path either has named is at the same revision in both, and every list's writes
/// named their entries at least once. A failure names its seed and the command (in a debug
/// build a wrong list or number traps first, in `ChangeRevisions.note(_:list:number:)`).
@Suite struct ChangeRevisionsFollowerTests {
    /// Writes that name their entry which random words reach rarely, in turn, one step in
    /// 40: `%d` is the step (each addition's title is new), `%p` and `%q` the rare steps one
    /// and two before (what they added, so that a random removal cannot have taken it).
    static let rare = [
        "ADD /menu \"Section %d\"", "ADD /menu/section-%p \"Dish %d\"", "ORDER /menu/section-%q/dish-%p",
        "ADD /settings \"Size %d\" int 1 2 3", "SELECT /settings/size-%p #2", "ADD /catalog \"Node %d\"",
        "ADD /items \"Thing %d\" %d",
    ]

    @Test(arguments: 1...8)
    func aFollowerNotingTheEventsByPathKeepsTheWritersRevisions(seed: UInt64) {
        var model = SeedData.model(now: 1_700_000_000)
        var follower = ChangeRevisions(base: model.changes.base)
        var viewer = Viewer()
        var rng = SplitMix64(seed: seed)
        var pick = SplitMix64(seed: seed &+ 1000)
        var universe = Set(RandomCommandsTests.paths.filter { $0.hasPrefix("/") })
        var named = Set<Int>()  // the lists whose writes named their entry
        for step in 0..<2_000 {
            var line = RandomCommandsTests.verbs.randomElement(using: &pick) ?? "LS"
            let n = Int.random(in: 0...4, using: &pick)
            if n > 0 { line += " " + (RandomCommandsTests.paths.randomElement(using: &pick) ?? "/") }
            for _ in 1..<max(1, n) { line += " " + (RandomCommandsTests.words.randomElement(using: &pick) ?? "x") }
            // One step in 40 is a write the grammar reaches rarely: an order, an addition.
            if step % 40 == 39 {
                line = Self.rare[(step / 40) % Self.rare.count].replacingOccurrences(of: "%d", with: "\(step)")
                    .replacingOccurrences(of: "%p", with: "\(step - 40)")
                    .replacingOccurrences(of: "%q", with: "\(step - 80)")
            }
            guard case .success(let r)? = RequestParser.parse(Array(line.utf8)) else { continue }
            let outcome = model.apply(r.command, viewer: &viewer, now: 1_700_000_000, rng: &rng)
            guard let event = outcome.event else { continue }
            if let entry = outcome.entry { named.insert(entry.list) }
            follower.note(event)
            universe.insert(event.path)
            for p in universe where model.changes.revision(of: p) != follower.revision(of: p) {
                Issue.record(
                    "seed \(seed), after \(line): \(p) is at \(model.changes.revision(of: p)) on the writer, \(follower.revision(of: p)) on the follower"
                )
                return
            }
        }
        #expect(named.count == Model.roots.count, "seed \(seed): only \(named.sorted().map { Model.roots[$0] }) named")
    }
}
