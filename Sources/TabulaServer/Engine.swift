import CLinuxShims
import Foundation
import Glibc
import Synchronization
import TabulaModel
import TabulaProtocol
import TabulaStorage

/// The durable-write thread. It takes the requests the I/O loops could not answer themselves
/// (changes that must reach the disk, and whatever a connection sent after one), as one batch
/// per turn: applies them in order under the write lock, commits the batch's mutations to the
/// store in one transaction (group commit: one fsync for all of them), and only then hands
/// back the replies and publishes the events. While a batch is applied but not committed,
/// the loops send every request here, so no client sees a change a crash could still lose.
final class Engine: @unchecked Sendable {
    private let inbox = WakeableInbox<EngineInput>()
    private let state: SharedState
    private let executor: RequestExecutor
    private let store: StateStore
    private let log: Log
    /// Engine-thread state: the sessions of connections with requests here.
    private var sessions: [ConnectionID: Session] = [:]
    private var stopped = false
    /// Set once the engine has stopped and released the store.
    let finished = Atomic<Bool>(false)

    init(state: SharedState, executor: RequestExecutor, store: StateStore, log: Log) {
        self.state = state
        self.executor = executor
        self.store = store
        self.log = log
    }

    /// Queues inputs from a loop; wakes the engine if it sleeps.
    func submit(_ inputs: [EngineInput]) { inbox.post(inputs) }

    /// The engine thread's body; returns after `.shutdown`.
    func run() {
        while !stopped {
            let batch = inbox.takeOrSleep()
            if batch.isEmpty {
                var pfd = pollfd(fd: inbox.fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&pfd, 1, -1)
                inbox.awake()
                inbox.clearSignal()
                continue
            }
            process(batch)
        }
        store.close()
        finished.store(true, ordering: .releasing)
    }

    private struct Answer {
        let conn: ConnectionID
        let bytes: [UInt8]
        let session: Session
        let close: Bool
    }

    private func process(_ batch: [EngineInput]) {
        var answers: [Answer] = []
        var mutations: [Mutation] = []
        var events: [Event] = []
        let sessionsBefore = sessions
        state.writing {
            for input in batch {
                if let (a, e) = handle(input, failingWrites: nil) {
                    answers.append(a)
                    if let ev = e?.event {
                        events.append(ev)
                        mutations += e?.mutations ?? []
                    }
                }
            }
            if !events.isEmpty { state.uncommitted = true }
        }
        var committed = true
        if !events.isEmpty {
            do {
                try store.commit(CommitBatch(mutations: mutations, events: events, revision: events.last?.rev ?? 0))
                noteStoredHistory()
            } catch {
                committed = false
                log.log(.error, "commit failed, batch rolled back: \(error)")
                sessions = sessionsBefore
                answers = rollBack(batch, error: error)
            }
        }
        var published = committed ? events.map { Optional($0) } : []
        events.removeAll()
        state.writing {
            state.uncommitted = false
            // Events first: once anyone holds the OK of a change, its event is already queued
            // for every watcher (a watcher's own change's event lands just before its OK).
            state.publish(&published, stats: executor.stats)
            deliver(answers)
            if stopped { for loop in state.loops { loop.post([.goodbye]) } }
        }
        published.removeAll()  // what fell out of the history, freed outside the lock
    }

    /// Runs one input (the write lock is held). With `failingWrites`, a write is not run but
    /// answered `ERR STORAGE` with that message. Nil when there is nothing to answer.
    private func handle(_ input: EngineInput, failingWrites: String?) -> (Answer, Execution?)? {
        switch input {
        case .request(let c, let r, let fresh):
            if let fresh { sessions[c] = fresh }
            var s = sessions[c] ?? Session()
            if let failingWrites, r.command.isWrite {
                let reply = Reply(error: TabulaError(.storage, failingWrites))
                return (Answer(conn: c, bytes: WireEncoder.encode(reply, tag: r.tag, format: s.format), session: s, close: false), nil)
            }
            let e = executor.execute(r, conn: c, session: &s, onEngine: true)
            sessions[c] = s
            return (Answer(conn: c, bytes: RequestExecutor.encode(e, tag: r.tag, format: s.format), session: s, close: e.close), e)
        case .failure(let c, let tag, let error, let fresh):
            if let fresh { sessions[c] = fresh }
            let s = sessions[c] ?? Session()
            return (Answer(conn: c, bytes: WireEncoder.encode(Reply(error: error), tag: tag, format: s.format), session: s, close: false), nil)
        case .closed(let c):
            sessions[c] = nil
            return nil
        case .shutdown:
            stopped = true
            return nil
        }
    }

    /// Records the store's oldest retained revision for STATS.
    private func noteStoredHistory() {
        if let oldest = try? store.oldestRevision() { state.storedHistoryOldest.store(oldest, ordering: .relaxed) }
    }

    private func deliver(_ answers: [Answer]) {
        var outbox = Array(repeating: [LoopMessage](), count: state.loops.count)
        for a in answers {
            outbox[a.conn.loop].append(.send(a.conn, a.bytes, completes: 1, session: a.session))
            if a.close { outbox[a.conn.loop].append(.close(a.conn)) }
        }
        for i in outbox.indices where !outbox[i].isEmpty { state.loops[i].post(outbox[i]) }
    }

    /// A commit failed: nothing of the batch is stored. Restore the last stored model, answer
    /// the batch's writes with `ERR STORAGE`, and answer everything else again from the
    /// restored state.
    private func rollBack(_ batch: [EngineInput], error: Error) -> [Answer] {
        let message = "the change could not be saved (\(error)); nothing was changed, try again later"
        return state.writing {
            do {
                if let snap = try store.load() {
                    state.model = Model(snapshot: snap)
                    state.model.recordsMutations = store.isDurable
                }
            } catch {
                log.log(.error, "reload after the failed commit failed too: \(error)")
            }
            return batch.compactMap { handle($0, failingWrites: message)?.0 }
        }
    }
}
