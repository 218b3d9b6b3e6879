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
    let state: SharedState
    let executor: RequestExecutor
    private let store: StateStore
    let log: Log
    private var stopped = false
    /// Groups whose first request is a WATCH met in a turn that had already made events:
    /// they run at the start of the next turn (see `run`).
    private var carried: [EngineInput] = []
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
            // Groups put off by the last turn go first, so that they cannot be put off again.
            let batch = carried.isEmpty ? inbox.takeOrSleep() : carried + inbox.take()
            carried.removeAll()
            if batch.isEmpty {
                var pfd = pollfd(fd: inbox.fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&pfd, 1, -1)
                inbox.awake()
                inbox.clearSignal()
                continue
            }
            processInTurns(batch)
        }
        store.close()
        finished.store(true, ordering: .releasing)
    }

    /// Requests of one connection run in one turn; the rest goes back to its loop, which
    /// routes it anew (so a pipelined flood shares the engine with everyone else).
    static let unitsPerGroup = 128
    /// Reply bytes one group may produce in one turn; past them the rest goes back likewise.
    static let bytesPerGroup = 1 << 20
    /// Requests run under one hold of the write lock (and committed together); a longer
    /// batch is split into turns of about this many.
    static let unitsPerTurn = 1024

    /// `WATCH … FROM`.
    static func isReplay(_ unit: LineUnit) -> Bool {
        guard case .request(let r) = unit, case .watch(_, .some) = r.command else { return false }
        return true
    }

    /// Splits what arrived into turns of bounded size. A group that starts with a request run
    /// on a copy of the state is a turn of its own, and so is one that starts with `WATCH …
    /// FROM`: events of later groups would otherwise be queued to the new watch ahead of its
    /// reply and replay.
    private func processInTurns(_ batch: [EngineInput]) {
        var turn: [EngineInput] = []
        var cost = 0
        for input in batch {
            if case .group(let c, let units, let session) = input, let first = units.first, Engine.runsOnCopy(first) || Engine.isReplay(first) {
                if !turn.isEmpty { process(turn) }
                turn.removeAll()
                cost = 0
                if Engine.runsOnCopy(first) { processOnCopy(c, units, session: session) } else { process([input]) }
                continue
            }
            turn.append(input)
            if case .group(_, let units, _) = input { cost += min(units.count, Engine.unitsPerGroup) }
            if cost >= Engine.unitsPerTurn {
                process(turn)
                turn.removeAll()
                cost = 0
            }
        }
        if !turn.isEmpty { process(turn) }
    }

    private func process(_ batch: [EngineInput]) {
        var answers: [GroupAnswer] = []
        var mutations: [Mutation] = []
        var events: [Event] = []
        var outside: [Event] = []
        var ran: [EngineInput] = []
        state.writing {
            // Changes from outside first: their revisions follow the model's as it stands.
            for case .external(let change) in batch { outside += applyOutside(change) }
            for input in batch {
                switch input {
                case .group(let c, let units, let session):
                    if let a = run(c, units, session: session, failingWrites: nil, mutations: &mutations, events: &events) {
                        answers.append(a)
                        ran.append(input)
                    } else {
                        carried.append(input)
                    }
                case .external:
                    break
                case .shutdown:
                    stopped = true
                }
            }
            if !events.isEmpty { state.uncommitted = true }
        }
        conclude(ran, answers: answers, mutations: mutations, events: events, outside: outside)
    }

    /// Commits what a turn applied (rolling back on failure), then publishes its events and
    /// hands out its answers.
    func conclude(_ batch: [EngineInput], answers: [GroupAnswer], mutations: [Mutation], events: [Event], outside: [Event]) {
        var answers = answers
        var committed = true
        if !events.isEmpty {
            do {
                try store.commit(CommitBatch(mutations: mutations, events: events, revision: events.last?.rev ?? 0))
                noteStoredHistory()
            } catch {
                committed = false
                log.log(.error, "commit failed, batch rolled back: \(error)")
                answers = rollBack(batch, error: error)
            }
        }
        // Changes from outside come first: they were durable before anything of this batch.
        var published = outside.map { Optional($0) } + (committed ? events.map { Optional($0) } : [])
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

    /// Applies a change made outside (write lock held); returns its events, or none when its
    /// revisions do not follow the model's (it is then logged and dropped, never applied out
    /// of order).
    private func applyOutside(_ change: ExternalChange) -> [Event] {
        guard let first = change.events.first, let last = change.events.last, first.rev == state.model.revision + 1 else {
            log.log(.error, "an outside change at revision \(change.events.first?.rev ?? 0) does not follow revision \(state.model.revision); dropped")
            return []
        }
        state.model.apply(change.mutations, revision: last.rev)
        return change.events
    }

    /// Runs one connection's group in order on a copy of its session (the write lock is
    /// held), up to a replay, a close or its share of the turn. With `failingWrites`, a write
    /// is not run but answered `ERR STORAGE` with that message. Collects the changes'
    /// mutations and events.
    /// Nil when the group starts with a WATCH and the turn has made events already: the
    /// watch would be sent those events though they are not after its reply's revision, so
    /// the group waits for the next turn (a WATCH later in a group ends the group there).
    func run(_ c: ConnectionID, _ units: [LineUnit], session start: Session, failingWrites: String?, mutations: inout [Mutation], events: inout [Event]) -> GroupAnswer? {
        var s = start
        var bytes: [UInt8] = []
        var close = false
        var replay: ReplayPlan?
        var done = 0
        for unit in units {
            if close || replay != nil || done == Engine.unitsPerGroup || bytes.count >= Engine.bytesPerGroup { break }
            if done > 0 && failingWrites == nil && Engine.runsOnCopy(unit) { break }  // a turn of its own
            if Dispatcher.route(unit, durable: true) == .authenticator { break }  // AUTH: back to the loop, which sends it on
            if done > 0 && Engine.isReplay(unit) { break }  // a turn of its own (see processInTurns)
            if !events.isEmpty && RequestExecutor.isWatch(unit) {  // after this turn's events are published
                if done == 0 && failingWrites == nil { return nil }
                break
            }
            done += 1
            switch unit {
            case .failure(let tag, let error):
                WireEncoder.encode(Reply(error: error), tag: tag, format: s.format, into: &bytes)
            case .request(let r):
                if let refusal = Dispatcher.refusal(r, session: s, state: state) {
                    WireEncoder.encode(Reply(error: refusal), tag: r.tag, format: s.format, into: &bytes)
                } else if let failingWrites, r.command.isWrite {
                    WireEncoder.encode(Reply(error: TabulaError(.storage, failingWrites)), tag: r.tag, format: s.format, into: &bytes)
                } else {
                    var e = executor.execute(r, conn: c, session: &s)
                    if let ev = e.outcome.event.take() {
                        events.append(ev)
                        mutations += e.outcome.mutations
                    }
                    RequestExecutor.encode(e, tag: r.tag, format: s.format, into: &bytes)
                    close = e.close
                    replay = e.replay
                }
            }
        }
        let rest = close ? [] : Array(units[done...])
        return GroupAnswer(conn: c, bytes: bytes, session: s == start ? nil : s, close: close, replay: replay, rest: rest)
    }

    /// Records the store's oldest retained revision for STATS.
    private func noteStoredHistory() {
        if let oldest = try? store.oldestRevision() { state.storedHistoryOldest.store(oldest, ordering: .relaxed) }
    }

    private func deliver(_ answers: [GroupAnswer]) {
        var outbox = Array(repeating: [LoopMessage](), count: state.loops.count)
        for a in answers { outbox[a.conn.loop].append(.answer(a)) }
        for i in outbox.indices where !outbox[i].isEmpty { state.loops[i].post(outbox[i]) }
    }

    /// A commit failed: nothing of the batch is stored. Restore the last stored model, answer
    /// the batch's writes with `ERR STORAGE`, and answer everything else again from the
    /// restored state.
    private func rollBack(_ batch: [EngineInput], error: Error) -> [GroupAnswer] {
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
            var mutations: [Mutation] = []
            var events: [Event] = []
            return batch.compactMap {
                guard case .group(let c, let units, let session) = $0 else { return nil }
                return run(c, units, session: session, failingWrites: message, mutations: &mutations, events: &events)
            }
        }
    }
}
