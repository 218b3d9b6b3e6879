import TabulaProtocol
import Testing

@testable import TabulaServer

/// `--busy-poll`: a thread out of work polls before it sleeps only while its idle periods are
/// shorter than the limit, so a busy server skips the sleep and an idle one sleeps.
@Suite struct IdleSpinTests {
    @Test func aNewThreadPollsForTheWholeLimit() {
        #expect(IdleSpin(limitMicros: 250).budget == 250_000)
    }

    @Test func aZeroLimitNeverPolls() {
        var spin = IdleSpin(limitMicros: 0)
        #expect(spin.budget == 0)
        spin.ended(after: 0)
        #expect(spin.budget == 0)
    }

    @Test func aPollThatFindsWorkKeepsPolling() {
        var spin = IdleSpin(limitMicros: 250)
        spin.ended(after: 249_999)
        #expect(spin.budget == 250_000)
    }

    @Test func aPollThatRunsOutStopsPolling() {
        var spin = IdleSpin(limitMicros: 250)
        spin.ended(after: 250_000)
        #expect(spin.budget == 0)
    }

    @Test func aShortSleepStartsPollingAgain() {
        var spin = IdleSpin(limitMicros: 250)
        spin.ended(after: 1_000_000_000)
        #expect(spin.budget == 0)
        spin.ended(after: 40_000)  // slept, and was woken 40 µs later
        #expect(spin.budget == 250_000)
    }

    /// What a thread using it does over a run of idle periods (nanoseconds until work came):
    /// polls (for at most its budget) and sleeps if the poll ran out. Returns the time spent
    /// polling in vain, the polls that found work and the sleeps.
    static func simulate(_ gaps: [UInt64], limitMicros: Int) -> (wasted: UInt64, found: Int, sleeps: Int) {
        var spin = IdleSpin(limitMicros: limitMicros)
        var wasted: UInt64 = 0
        var found = 0
        var sleeps = 0
        for gap in gaps {
            let budget = spin.budget
            if gap < budget {
                found += 1
            } else {
                wasted += budget
                sleeps += 1
            }
            spin.ended(after: gap)
        }
        return (wasted, found, sleeps)
    }

    /// Over random runs of idle periods, short and long mixed in random proportions: a poll
    /// comes only after a short period (or first), and so the CPU polled in vain is at most the
    /// limit for each idle period that followed a short one; work that keeps coming sooner than
    /// the limit is never slept for, and an idle thread sleeps after at most one poll.
    @Test func pollingInVainIsBoundedByTheShortPeriodsBeforeIt() {
        var rng = SplitMix64(seed: 2912)
        let limit: UInt64 = 250_000
        for _ in 0..<2_000 {
            let shortShare = rng.next() % 101
            let gaps = (0..<Int(rng.next() % 60)).map { _ in
                rng.next() % 100 < shortShare ? rng.next() % limit : limit + rng.next() % 10_000_000
            }
            let run = IdleSpinTests.simulate(gaps, limitMicros: 250)
            let afterShort = 1 + zip(gaps, gaps.dropFirst()).filter { $0.0 < limit }.count
            #expect(run.wasted <= limit * UInt64(afterShort), "gaps \(gaps)")
            if gaps.allSatisfy({ $0 < limit }) { #expect(run.sleeps == 0 && run.found == gaps.count) }
            if gaps.allSatisfy({ $0 >= limit }) { #expect(run.wasted <= limit) }
        }
    }
}
