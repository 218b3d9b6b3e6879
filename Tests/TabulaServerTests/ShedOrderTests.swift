import Testing
@testable import TabulaServer

/// The order of shedding: the longest to read what it holds at its recent rate goes first,
/// so a client reading steadily outlasts attackers that trickle reads to look alive.
@Suite struct ShedOrderTests {
    @Test func aSteadyReaderOfMoreIsDroppedAfterTricklingReadersOfLess() {
        // 120 attackers hold 5 MB each and took 4 KB every 0.3 s; the reader holds 10 MB and
        // took 1 MB a second (the fourth hostile round's attack: it was dropped first).
        var candidates = Array(repeating: ShedOrder.Candidate(unread: 5_000_000, took: 27_000), count: 120)
        candidates.insert(ShedOrder.Candidate(unread: 10_000_000, took: 2_000_000), at: 37)
        #expect(ShedOrder.order(candidates).last == 37)
    }

    @Test func oneThatTookNothingGoesBeforeOneThatTookAnything() {
        #expect(
            ShedOrder.order([.init(unread: 9_000_000, took: 500), .init(unread: 300_000, took: 0)]) == [1, 0],
            "nothing taken outweighs more held")
        #expect(ShedOrder.order([.init(unread: 300_000, took: 10), .init(unread: 300_000, took: 0)]) == [1, 0])
    }

    /// Every pair drawn from a grid: the one dropped first never has the smaller backlog.
    @Test func noConnectionIsDroppedBeforeOneThatNeedsLongerToReadWhatItHolds() {
        let unread = [262_144, 1_000_000, 5_000_000, 10_000_000]
        let took = [0, 1, 4_096, 27_000, 1_000_000, 8_000_000]
        let all = unread.flatMap { u in took.map { ShedOrder.Candidate(unread: u, took: $0) } }
        let order = ShedOrder.order(all)
        for (k, i) in order.enumerated() {
            for j in order[(k + 1)...] {
                #expect(ShedOrder.backlog(all[i]) >= ShedOrder.backlog(all[j]), "\(all[i]) before \(all[j])")
            }
        }
    }

    @Test func theMeterCountsThisSecondAndTheOneBeforeOnly() {
        var m = DrainMeter()
        m.add(100, at: 10)
        m.add(50, at: 10)
        #expect(m.recent(at: 10) == 150)
        m.add(7, at: 11)
        #expect(m.recent(at: 11) == 157)
        #expect(m.recent(at: 12) == 7)
        #expect(m.recent(at: 13) == 0)
        m.add(1, at: 20)
        #expect(m.recent(at: 20) == 1, "a gap forgets what came before it")
    }

    @Test func aLoopHoldingLessThanItsShareDropsNoneWhenAnotherLoopPassedTheBound() {
        // 3 MB of readers here; the server's 600 MB are mostly the other loop's.
        let held = [1_000_000, 1_000_000, 1_000_000]
        #expect(ShedOrder.dropCount(held: held, total: 600_000_000, target: 448_000_000, share: 224_000_000) == 0)
    }

    @Test func aLoopOverItsShareDropsUntilTheTotalIsUnderTheTarget() {
        let held = Array(repeating: 10_000_000, count: 40)  // 400 MB here, 600 MB in all
        #expect(ShedOrder.dropCount(held: held, total: 600_000_000, target: 448_000_000, share: 224_000_000) == 16)
    }

    @Test func aLoopOverItsShareStopsAtItsShareThoughTheTotalIsStillOver() {
        let held = Array(repeating: 10_000_000, count: 30)  // 300 MB here, 600 MB in all
        #expect(ShedOrder.dropCount(held: held, total: 600_000_000, target: 448_000_000, share: 224_000_000) == 8)
    }
}
