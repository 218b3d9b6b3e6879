/// How much a connection's client took of its output lately: the bytes written to its
/// socket in the loop's current second and the one before. Pure.
struct DrainMeter: Sendable, Equatable {
    private var second = 0
    private var this = 0
    private var last = 0

    /// Counts `n` bytes written at second `now` (the loop's clock, never going back).
    mutating func add(_ n: Int, at now: Int) {
        if now != second {
            last = now == second + 1 ? this : 0
            this = 0
            second = now
        }
        this += n
    }

    /// The bytes written in the second `now` and the one before it.
    func recent(at now: Int) -> Int {
        if now == second { return this + last }
        return now == second + 1 ? this : 0
    }
}
