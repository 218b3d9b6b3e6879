/// Whether a thread that ran out of work polls for more before it sleeps (`--busy-poll`),
/// learned from how long its idle periods last. Falling asleep and being woken costs a
/// system call on each side and a scheduler wake-up, tens of microseconds on a virtual
/// machine; a thread whose next work comes sooner than that does better to poll for it,
/// giving its CPU away between looks (`sched_yield`) so that whatever else is runnable there,
/// often the client it waits for, runs first.
///
/// The rule: poll, for at most `limit`, only when the last idle period was shorter than
/// `limit`. A poll that finds work keeps the next one; a poll that runs out (the work came
/// later) stops polling, and only an idle period shorter than `limit` starts it again. So an
/// idle server sleeps after at most one poll, and the CPU a poll wastes is at most `limit`
/// for each idle period that followed a short one.
///
/// Pure: the caller measures (the monotonic clock in nanoseconds) and polls.
struct IdleSpin: Sendable {
    /// The longest poll, in nanoseconds; 0 never polls.
    let limit: UInt64
    /// Whether the next idle period starts with a poll.
    private(set) var polls: Bool

    init(limitMicros: Int) {
        limit = UInt64(max(0, limitMicros)) * 1000
        polls = limit > 0
    }

    /// How long the next idle period may poll before sleeping, in nanoseconds (0: sleep at once).
    var budget: UInt64 { polls ? limit : 0 }

    /// An idle period ended (work came) after `idle` nanoseconds, its poll included.
    mutating func ended(after idle: UInt64) {
        polls = limit > 0 && idle < limit
    }
}
