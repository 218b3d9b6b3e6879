import Testing
import TabulaProtocol

@testable import TabulaServer

/// The counts every request touches are kept per loop and read summed (`LoopCounts`,
/// `ServerStats`).
@Suite struct LoopCountsTests {
    @Test func requestsAndBytesCountedOnEachLoopAreReadAsOneTotal() {
        let stats = ServerStats(loops: 2)
        stats.ran(.ping, loop: 0)
        stats.ran(.ping, loop: 1)
        stats.ran(.fav, loop: 1)
        stats.perLoop[0].bytesIn.add(10)
        stats.perLoop[1].bytesIn.add(5)
        stats.perLoop[1].bytesOut.add(7)
        #expect(stats.requests == 3)
        #expect(stats.requests(.ping) == 2 && stats.requests(.fav) == 1 && stats.requests(.ls) == 0)
        #expect(stats.bytesIn == 15 && stats.bytesOut == 7)
        #expect(stats.perLoop[0].byVerb[Verb.ping.ordinal].count == 1, "each loop adds to its own")
    }
}
