import Foundation
import Testing
import TabulaModel
import TabulaProtocol
import TabulaStorage

/// Random writes from every list, hot rows among them, committed in random batches (as the
/// engine's group commit does) must leave the file exactly as committing each alone does.
@Suite struct SQLiteGroupCommitTests {
    static let lines = [
        "SELECT /settings/my-int #%d", "SELECT /settings/my-string #%d", "FAV /items/1", "FAV /items/%d",
        "ADD /items x%d %d", "RM /items/%d",
        "MV /items/%d %d", "SET /items/%d value=%d", "BANDS Low %d High", "ORDER pesto", "ORDER margherita",
        "RM /orders/%d",
        "ADD /catalog/item-1 N%d tabs A B", "RM /catalog/item-%d", "ADD /menu M%d", "ADD /settings \"S%d\" int 1 2 3",
        "ADD /menu/m%d E%d", "ADD /menu/m%d F%d", "RM /menu/m%d", "ADD /menu/pizza P%d", "RM /menu/pizza/p%d",
        "RM /menu/m%d/e%d",
    ]

    /// The changes of `n` random writes from `seed`: each change's mutations and event.
    static func changes(seed: UInt64, n: Int) -> (changes: [(mutations: [Mutation], event: Event)], model: Model) {
        var model = SeedData.model(now: 1_700_000_000)
        var viewer = Viewer()
        var rng = SplitMix64(seed: seed)
        var pick = SplitMix64(seed: seed &+ 1)
        var out: [(mutations: [Mutation], event: Event)] = []
        for _ in 0..<n {
            var line = lines.randomElement(using: &pick)!
            while let r = line.range(of: "%d") {
                line.replaceSubrange(r, with: String(Int.random(in: 1...9, using: &pick) * 10))
            }
            guard case .success(let req)? = RequestParser.parse(Array(line.utf8)) else { continue }
            let o = model.apply(req.command, viewer: &viewer, now: 1_700_000_000, rng: &rng)
            if let e = o.event { out.append((o.mutations, e)) }
        }
        return (out, model)
    }

    static func commit(_ changes: ArraySlice<(mutations: [Mutation], event: Event)>, to store: SQLiteStore) throws {
        try store.commit(
            CommitBatch(
                mutations: changes.flatMap(\.mutations), events: changes.map(\.event),
                revision: changes.last!.event.rev,
                mutationEnds: changes.indices.map { i in changes[...i].reduce(0) { $0 + $1.mutations.count } }))
    }

    @Test(arguments: [1, 7, 2026, 31_337] as [UInt64])
    func randomBatchesLeaveTheFileAsSingleCommitsDo(seed: UInt64) throws {
        let (changes, model) = SQLiteGroupCommitTests.changes(seed: seed, n: 800)
        let batched = try SQLiteStore(path: tempPath()), single = try SQLiteStore(path: tempPath())
        for s in [batched, single] { try s.seed(SeedData.model(now: 1_700_000_000).snapshot) }
        var pick = SplitMix64(seed: seed &+ 2)
        var i = 0
        while i < changes.count {
            let n = min(changes.count - i, Int.random(in: 1...40, using: &pick))
            try SQLiteGroupCommitTests.commit(changes[i..<(i + n)], to: batched)
            i += n
        }
        for k in changes.indices { try SQLiteGroupCommitTests.commit(changes[k...k], to: single) }
        let a = try #require(try batched.load()), b = try #require(try single.load())
        #expect(a == b, "seed \(seed): a batched commit left other rows than single commits")
        #expect(Model(snapshot: a).snapshot == model.snapshot, "seed \(seed)")
        #expect(changes.count > 250, "seed \(seed): too few changes to mean anything (\(changes.count))")
    }
}
