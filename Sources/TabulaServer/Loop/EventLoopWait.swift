import CLinuxShims
import Glibc

/// How a loop waits for its next work: at once when it has some, else polling briefly while
/// it awaits an answer from the engine (`IdleSpin`, `--busy-poll`: a durable write's commit
/// takes a few hundred microseconds, less than falling asleep and being woken costs both
/// sides) and then sleeping in `epoll_wait` until a socket, the inbox or the next timeout
/// wakes it. A loop that awaits nothing does not poll: with clients on the same cores, a
/// loop polling for its next request takes the cores those clients need, and their tail
/// latency grows more than their throughput.
extension EventLoop {
    /// Fills `events`; returns how many there are (0 when only the inbox has work, -1 on an
    /// interrupted wait) and whether the loop slept (was woken, rather than found work).
    func waitForWork(_ events: inout [tabula_epoll_event]) -> (count: Int32, slept: Bool) {
        let room = Int32(events.count)
        guard ready.isEmpty && readLater.isEmpty && dirty.isEmpty && carried.isEmpty && !replayCanStep else {
            return (tabula_epoll_wait(epfd, &events, room, 0), false)
        }
        let start = Histogram.now()
        let budget = awaitingAnswers > 0 ? idleSpin.budget : 0
        if budget > 0 {
            // Not marked asleep while polling: a post meanwhile costs its sender no wake-up.
            repeat {
                let n = tabula_epoll_wait(epfd, &events, room, 0)
                if n != 0 || !inbox.isEmpty {
                    idleSpin.ended(after: Histogram.now() &- start)
                    return (n, false)
                }
                sched_yield()
            } while Histogram.now() &- start < budget
        }
        guard inbox.isEmptyMarkingSleep() else {
            idleSpin.ended(after: Histogram.now() &- start)
            return (tabula_epoll_wait(epfd, &events, room, 0), false)
        }
        let n = tabula_epoll_wait(epfd, &events, room, sleepTimeout)
        inbox.awake()
        idleSpin.ended(after: Histogram.now() &- start)
        return (n, true)
    }
}
