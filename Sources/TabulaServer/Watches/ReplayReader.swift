import Foundation
import Glibc
import Synchronization
import TabulaStorage

/// The thread that reads the store's history for replays, so that no I/O loop ever waits on
/// the disk or on PostgreSQL (etcd's watchable store catches up its unsynced watchers in a
/// loop of its own likewise). A loop hands it a replay whose next step memory cannot serve;
/// it takes that one step against the store and posts the replay, advanced, and the step's
/// outcome back to the loop's inbox. A replay has at most one step here at a time, so what
/// waits is bounded by the replaying connections; stalled replays wait here, not on a loop.
final class ReplayReader: Sendable {
    struct Job: Sendable {
        let conn: ConnectionID
        let replay: Replay
    }

    private let inbox = WakeableInbox<Job?>()
    private let state: SharedState
    private let store: StateStore
    /// Set once the thread has returned.
    let finished = Atomic<Bool>(false)

    init(state: SharedState, store: StateStore) {
        self.state = state
        self.store = store
    }

    /// Queues one step of `replay` (any thread).
    func take(_ conn: ConnectionID, _ replay: Replay) { inbox.post([Job(conn: conn, replay: replay)]) }

    /// Stops after the steps queued so far.
    func stop() { inbox.post([nil]) }

    func run() {
        let history = StoreHistory(state: state, store: store)  // this thread's alone
        var stopped = false
        while !stopped {
            let jobs = inbox.takeOrSleep()
            if jobs.isEmpty {
                var pfd = pollfd(fd: inbox.fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&pfd, 1, -1)
                inbox.awake()
                inbox.clearSignal()
                continue
            }
            for job in jobs {
                guard let job else {
                    stopped = true
                    break
                }
                var r = job.replay
                let step = r.step(history)
                state.loops[job.conn.loop].post([.replayStep(job.conn, r, step)])
            }
        }
        finished.store(true, ordering: .releasing)
    }
}
