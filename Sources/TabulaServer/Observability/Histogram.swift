import Glibc
import Synchronization

/// A Prometheus histogram: counts of observations at or under each bound, their sum and
/// count. Written by one thread only (each loop, and the engine, has its own), read by a scrape;
/// the relaxed atomics make that read exact per bucket, if not across buckets at once.
final class Histogram: Sendable {
    /// The upper bounds, ascending (the `+Inf` bucket is `count`).
    let bounds: [Double]
    private let buckets: [Counter]
    /// The sum in millionths of the unit (seconds: microseconds), so it stays an integer.
    private let sumMillionths = Atomic<Int>(0)
    private let observations = Atomic<Int>(0)

    init(bounds: [Double]) {
        self.bounds = bounds
        buckets = bounds.map { _ in Counter() }
    }

    /// Durations from 50 µs to 10 s.
    static func seconds() -> Histogram {
        Histogram(bounds: [
            0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10,
        ])
    }

    /// Sizes from 1 to 4,096.
    static func sizes() -> Histogram {
        Histogram(bounds: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096])
    }

    /// The monotonic clock in nanoseconds: what `observe(since:)` measures from. One vDSO
    /// call and integer arithmetic (`ContinuousClock`'s Duration costs ~10x that in 128-bit
    /// math), since the loops time every batch.
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Observes the seconds from `start` (a `now()`) to now.
    func observe(since start: UInt64) {
        observe(Double(Histogram.now() &- start) / 1e9)
    }

    /// Counts `v` (`n` times). Only the histogram's one writer calls it, so each count is a
    /// plain load and store (no locked read-modify-write on the hot path).
    func observe(_ v: Double, times n: Int = 1) {
        // The first bucket that holds it: the others are summed at read time (cumulative).
        if let i = bounds.firstIndex(where: { v <= $0 }) { buckets[i].bump(n) }
        sumMillionths.store(sumMillionths.load(ordering: .relaxed) &+ Int(v * 1_000_000) * n, ordering: .relaxed)
        observations.store(observations.load(ordering: .relaxed) &+ n, ordering: .relaxed)
    }

    /// The cumulative counts per bound, the sum and the count.
    var reading: (cumulative: [Int], sum: Double, count: Int) {
        var running = 0
        let cumulative = buckets.map { b -> Int in
            running += b.count
            return running
        }
        return (
            cumulative, Double(sumMillionths.load(ordering: .relaxed)) / 1_000_000,
            observations.load(ordering: .relaxed)
        )
    }

    /// Several histograms of the same bounds as one reading (the loops' together).
    static func merged(_ hs: [Histogram]) -> (cumulative: [Int], sum: Double, count: Int) {
        var cumulative = Array(repeating: 0, count: hs.first?.bounds.count ?? 0)
        var sum = 0.0, count = 0
        for h in hs {
            let r = h.reading
            for i in cumulative.indices { cumulative[i] += r.cumulative[i] }
            sum += r.sum
            count += r.count
        }
        return (cumulative, sum, count)
    }
}
