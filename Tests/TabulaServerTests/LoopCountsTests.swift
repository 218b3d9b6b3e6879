import Testing
import TabulaProtocol

@testable import TabulaServer

/// The counts every request touches are kept per thread that runs requests (each loop and
/// the engine) and read summed (`LoopCounts`, `ServerStats`).
@Suite struct LoopCountsTests {
    @Test func requestsAndBytesCountedByEachLoopAndTheEngineAreReadAsOneTotal() {
        let stats = ServerStats(loops: 2)
        stats.counts(loop: 0).ran(.ping)
        stats.counts(loop: 1).ran(.ping)
        stats.counts(loop: 1).ran(.fav)
        stats.engineCounts.ran(.fav)
        stats.counts(loop: 0).read(10)
        stats.counts(loop: 1).read(5)
        stats.counts(loop: 1).wrote(7)
        #expect(stats.requests == 4)
        #expect(stats.requests(.ping) == 2 && stats.requests(.fav) == 2 && stats.requests(.ls) == 0)
        #expect(stats.bytesIn == 15 && stats.bytesOut == 7)
        #expect(stats.counts(loop: 0).requests(.ping) == 1, "each loop adds to its own")
        #expect(stats.counts(loop: 1).requests == 2 && stats.engineCounts.requests == 1)
    }

    @Test func everyLoopAndTheEngineHaveASetOfTheirOwn() {
        let stats = ServerStats(loops: 3)
        let sets = (0..<3).map { stats.counts(loop: $0) } + [stats.engineCounts]
        let distinct = Set(sets.map(ObjectIdentifier.init)).count
        #expect(distinct == 4)
    }
}
