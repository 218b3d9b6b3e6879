/// Which connections are dropped first when the server holds too much unread output: the
/// one that would take longest to read what it holds at the rate it reads now, that is the
/// most unread bytes for each byte it took in the last two seconds (one that took nothing
/// counts as taking one byte). A client that reads steadily is dropped after every one that
/// holds as much and reads less, so a trickle of reads keeps no attacker ahead of it. Pure.
enum ShedOrder {
    /// One candidate: its unread bytes, and what it took lately (`DrainMeter.recent`).
    struct Candidate: Sendable, Equatable {
        let unread: Int
        let took: Int
    }

    /// The seconds `c` needs to read what it holds at its recent rate (two seconds' worth).
    static func backlog(_ c: Candidate) -> Double { Double(c.unread) * 2 / Double(max(c.took, 1)) }

    /// The candidates' indices, first to drop first; ties keep the most unread first.
    static func order(_ candidates: [Candidate]) -> [Int] {
        candidates.indices.sorted { i, j in
            let (a, b) = (backlog(candidates[i]), backlog(candidates[j]))
            return a != b ? a > b : candidates[i].unread > candidates[j].unread
        }
    }

    /// How many of the first candidates in drop order (`held`: what each holds, in that
    /// order) one loop drops: until the server's `total` is under `target`, or until what
    /// this loop holds is under `share`, its part of the target. A loop whose connections hold
    /// little is not emptied for output another loop holds: that loop drops its own.
    static func dropCount(held: [Int], total: Int, target: Int, share: Int) -> Int {
        var total = total, mine = held.reduce(0, +), k = 0
        while k < held.count && total > target && mine > share {
            total -= held[k]
            mine -= held[k]
            k += 1
        }
        return k
    }
}
