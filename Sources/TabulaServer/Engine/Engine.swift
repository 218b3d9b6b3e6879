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
/// the loops read the model as committed before it (`SharedState.committed`), so no client
/// sees a change a crash could still lose and no read waits for the disk.
///
/// It is made on its own thread and stays there (not Sendable): other threads reach it only
/// through its `EngineHandle`.
final class Engine {
    let handle: EngineHandle
    var inbox: WakeableInbox<EngineInput> { handle.inbox }
    let state: SharedState
    let executor: RequestExecutor
    let store: StateStore
    let log: Log
    var stopped = false
    /// Groups whose first request is a WATCH met in a turn that had already made events:
    /// they run at the start of the next turn (see `run`).
    var carried: [EngineInput] = []
    /// Groups that start with a `SYNC` to a revision not yet applied (see EngineSync).
    var parked: SyncWaits { handle.syncWaits }
    /// Connections whose parked `SYNC` reached its deadline: answered `ERR TIMEOUT`.
    var syncExpired: Set<ConnectionID> = []
    /// What a shared store's node must reload before it may answer from its state again.
    var pendingReload: PendingReload?
    /// Whether the last attempt to follow the shared store failed (logged once per outage).
    var followFailing = false
    /// Whether the engine polls its inbox before it sleeps (`nextBatch`).
    var idleSpin: IdleSpin
    /// Connections whose changes the store refused lately: their groups run last.
    var refusedWriters = RefusedWriters()

    /// `RefusedWriters`' clock: the engine's own (`SyncClock`).
    var now: Double { SyncClock.seconds() }
    init(handle: EngineHandle, store: StateStore, log: Log, busyPollMicros: Int) {
        self.handle = handle
        state = handle.state
        executor = handle.executor
        self.store = store
        self.log = log
        idleSpin = IdleSpin(limitMicros: busyPollMicros)
    }

    /// Queues inputs from a loop; wakes the engine if it sleeps.
    func submit(_ inputs: [EngineInput]) { inbox.post(inputs) }

    /// The engine thread's body; returns after `.shutdown`.
    func run() {
        while !stopped {
            releaseParked()
            // Groups put off by the last turn go first, so that they cannot be put off again.
            let batch = carried.isEmpty ? nextBatch() : carried + inbox.take()
            carried.removeAll()
            if !batch.isEmpty {
                // A writer whose changes the store refused lately runs after the others.
                let (first, later) = refusedWriters.ordered(batch, at: now)
                if !first.isEmpty { processInTurns(first) }
                // Each in a turn of its own, so that its refusal costs one commit and no
                // retries in halves; a few a round, the rest after what arrives meanwhile.
                for input in later.prefix(RefusedWriters.perRound) { processInTurns([input]) }
                carried += later.dropFirst(RefusedWriters.perRound)
            }
            if !parked.isEmpty { parked.poke() }  // SYNCs the turn's revisions may answer
        }
        answerParkedAtShutdown()
        store.close()
        handle.finished.store(true, ordering: .releasing)
    }

    /// Requests of one connection run in one turn; the rest goes back to its loop, which
    /// routes it anew (so a pipelined flood shares the engine with everyone else).
    static let unitsPerGroup = 128
    /// Reply rows one group may produce in one turn (as on a loop: `RequestExecutor.
    /// rowsPerLock`, a pre-encoded answer counting a row per `bytesPerRow` of it); past them
    /// the rest goes back likewise.
    static let rowsPerGroup = RequestExecutor.rowsPerLock
    /// Requests run under one hold of the write lock (and committed together); a longer
    /// batch is split into turns of about this many.
    static let unitsPerTurn = 1024

    /// `WATCH … FROM`.
    static func isReplay(_ unit: RoutedUnit) -> Bool {
        guard case .request(let r) = unit.unit else { return false }
        return r.command.replays
    }

    /// Splits what arrived into turns of bounded size. A group that starts with a request run
    /// on a copy of the state is a turn of its own, and so is one that starts with `WATCH …
    /// FROM`: events of later groups would otherwise be queued to the new watch ahead of its
    /// reply and replay.
    private func processInTurns(_ batch: [EngineInput]) {
        var turn: [EngineInput] = []
        var cost = 0
        for input in batch {
            if case .group(let c, let units, let session) = input, let first = units.first,
                Engine.runsOnCopy(first) || Engine.isReplay(first)
            {
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

    func process(_ batch: [EngineInput]) {
        var answers: [GroupAnswer] = []
        var eventEnds: [Int] = []
        var work = CommitWork()
        var outside: [Event] = []
        var ran: [EngineInput] = []
        guard let start = beginTurn(batch) else { return }
        // Requests that came while the shared store's head was awaited join this turn.
        let batch = start.deferred ? [] : start.began ? batch + lateArrivals(after: batch) : batch
        state.writing { lease in
            // The model as committed: what the loops read until this turn is, and what a
            // refused commit puts back.
            state.keepCommitted()
            // Other nodes' changes first: their revisions follow the model's as it stands.
            outside += applyStored(start.caught, lease)
            for input in batch {
                switch input {
                case .group(let c, let units, let session):
                    if let p = parkIfWaiting(input) {
                        parked.park(p)
                    } else if let a = run(c, units, lease, session: session, failing: start.failing, work: &work) {
                        answers.append(a)
                        eventEnds.append(work.events.count)
                        ran.append(input)
                    } else {
                        carried.append(input)
                    }
                case .follow:
                    break
                case .shutdown:
                    stopped = true
                }
            }
            // Changes of its own, or other nodes' not yet confirmed durable (`abandonWrite`).
            if !work.events.isEmpty || (start.began && !outside.isEmpty) {
                state.uncommitted = true
            } else {
                state.dropCommittedNow()
            }
        }
        conclude(ran, answers: answers, work: work, outside: outside, began: start.began, eventEnds: eventEnds)
    }

    /// Runs one connection's group in order on a copy of its session (the write lock is
    /// held), up to a replay, a close or its share of the turn. With `failing`, requests it
    /// covers are not run but answered `ERR STORAGE` with its message. Collects the changes'
    /// mutations and events.
    /// Nil when the group starts with a WATCH and the turn has made events already: the
    /// watch would be sent those events though they are not after its reply's revision, so
    /// the group waits for the next turn (a WATCH later in a group ends the group there).
    func run(
        _ c: ConnectionID, _ units: [RoutedUnit], _ lease: ModelLease, session start: Session, failing: Failing?,
        work: inout CommitWork
    ) -> GroupAnswer? {
        var s = start
        var answers: [Answer] = []
        var rows = 0
        var close = false
        var replay: ReplayPlan?
        var done = 0
        for unit in units {
            if close || replay != nil || done == Engine.unitsPerGroup || rows >= Engine.rowsPerGroup { break }
            if done > 0 && failing == nil && Engine.runsOnCopy(unit) { break }  // a turn of its own
            // AUTH: back to the loop, which sends it on
            if unit.route == .authenticator { break }
            if done > 0 && Engine.isReplay(unit) { break }  // a turn of its own (see processInTurns)
            if !work.events.isEmpty && unit.server.readsPublished {  // after this turn's events are published
                if done == 0 && failing == nil { return nil }
                break
            }
            if done > 0 && mustWait(unit) { break }  // a SYNC not yet due: parked on its own
            done += 1
            switch unit.unit {
            case .failure(let tag, let error):
                answers.append(executor.refused(error, tag: tag, format: s.format))
            case .answer(let answer, let format, let closes):
                if let format { executor.switchFormat(c, to: format, session: &s) }
                rows += answer.count / RequestExecutor.bytesPerRow
                answers.append(.bytes(answer))
                close = closes
            case .value(let v):
                let answer = v.encoded(resp3: s.format == .resp3)
                rows += answer.count / RequestExecutor.bytesPerRow
                answers.append(.bytes(answer))
            case .reply(let reply, let tag):
                answers.append(.reply(reply, tag: tag, format: s.format))
            case .transaction(let queue, let tag):  // a turn of its own, unless the store is refusing writes
                let e =
                    failing?.error(for: queue.first?.command ?? .ping(nil))
                    ?? TabulaError(.storage, "the transaction could not run; try again")
                answers.append(executor.refused(e, tag: tag, format: s.format))
            case .codecLogin:  // routed to the authenticator: the loop above stops before it
                answers.append(
                    executor.refused(
                        TabulaError(.invalid, "HELLO with AUTH is answered by the authenticator"), tag: nil,
                        format: s.format))
            case .request(let r):
                let ran = run(r, c, lease, session: &s, failing: failing, work: &work, into: &answers)
                rows += ran.rows
                close = ran.close
                replay = ran.replay
            }
        }
        let rest = close ? [] : Array(units[done...])
        // An UNWATCH's answer here follows its turn's publication already: nothing to settle.
        s.unwatchedAt = nil
        return GroupAnswer(
            conn: c, answers: answers, session: s == start ? nil : s, close: close, replay: replay, rest: rest)
    }

    /// One request of a group: refused (its grants, the failing store), a SYNC answered, or
    /// executed with its event given to its own connection inline and its change collected.
    private func run(
        _ r: Request, _ c: ConnectionID, _ lease: ModelLease, session s: inout Session, failing: Failing?,
        work: inout CommitWork,
        into answers: inout [Answer]
    ) -> (rows: Int, close: Bool, replay: ReplayPlan?) {
        if let refusal = Dispatcher.refusal(r, session: s, lease: lease) {
            answers.append(executor.refused(refusal, tag: r.tag, format: s.format))
        } else if let failing, failing.covers(r.command) {
            answers.append(executor.refused(failing.error(for: r.command), tag: r.tag, format: s.format))
        } else if case .sync(let rev, _) = r.command {
            answers.append(.reply(syncReply(c, rev: rev), tag: r.tag, format: s.format))
        } else {
            var e = executor.execute(r, lease, conn: c, session: &s, counts: executor.stats.engineCounts)
            if let ev = e.outcome.event.take() {
                if let own = state.ownEvent(ev, for: c, stats: executor.stats) { answers.append(own) }
                work.add(ev, e.outcome.mutations, origin: c)
            }
            let ran = (rows: e.outcome.reply.rows.count, close: e.close, replay: e.replay)
            answers.append(.run(consume e, tag: r.tag, format: s.format, cacheKey: nil, revision: 0))
            return ran
        }
        return (0, false, nil)
    }
}
