import Glibc

/// How the engine waits for its next batch: polling its inbox briefly (`IdleSpin`,
/// `--busy-poll`), then sleeping on the inbox's eventfd until a loop posts, or until the
/// next parked `SYNC` is due.
extension Engine {
    /// What the loops posted, or nothing once a wait ended without any (a parked `SYNC`'s
    /// deadline, a signal).
    func nextBatch() -> [EngineInput] {
        let first = inbox.take()
        guard first.isEmpty else { return first }
        let start = Histogram.now()
        let budget = idleSpin.budget
        if budget > 0 {
            // Not marked asleep while polling: a loop's post meanwhile costs it no wake-up.
            repeat {
                sched_yield()
                if !inbox.isEmpty {
                    idleSpin.ended(after: Histogram.now() &- start)
                    return inbox.take()
                }
            } while Histogram.now() &- start < budget
        }
        let batch = inbox.takeOrSleep()
        guard batch.isEmpty else {
            idleSpin.ended(after: Histogram.now() &- start)
            return batch
        }
        var pfd = pollfd(fd: inbox.fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&pfd, 1, parkedWait())
        inbox.awake()
        inbox.clearSignal()
        idleSpin.ended(after: Histogram.now() &- start)
        return []
    }
}
