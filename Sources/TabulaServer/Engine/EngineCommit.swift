import TabulaModel
import TabulaProtocol
import TabulaStorage

/// What a turn's requests changed: the mutations and events to commit, in order.
struct CommitWork {
    var mutations: [Mutation] = []
    var events: [Event] = []
    /// Where each event's mutations end (see `CommitBatch.mutationEnds`).
    var ends: [Int] = []
    /// The connection whose request made each event (it was given the event inline).
    var origins: [ConnectionID?] = []

    mutating func add(_ event: Event, _ m: [Mutation], origin: ConnectionID? = nil) {
        events.append(event)
        mutations += m
        ends.append(mutations.count)
        origins.append(origin)
    }
}

/// Requests a turn answers `ERR STORAGE` instead of running.
struct Failing {
    /// The error's text.
    var message: String
    /// Every request that reads or writes the state (a node that must reload first), or
    /// only writes (the store cannot take them).
    var everything: Bool
    /// The code writes are answered with.
    var code = ErrorCode.storage
    /// What the other requests it covers are told, when not the same (`everything`).
    var others: TabulaError?

    /// The answer to `c`, which it covers.
    func error(for c: Command) -> TabulaError {
        c.isWrite ? TabulaError(code, message) : others ?? TabulaError(code, message)
    }

    func covers(_ c: Command) -> Bool {
        if everything { return c.traits.readsModel }
        return c.isWrite
    }
}

extension Engine {
    /// Commits what a turn applied (rolling back on failure), then publishes its events and
    /// hands out its answers. `began`: the turn locked a shared store's head (released here).
    /// `eventEnds[k]`: how many of `work.events` had been made once answer k's group ran
    /// (nil: all of them before any answer).
    func conclude(
        _ batch: [EngineInput], answers: [GroupAnswer], work: CommitWork, outside: [Event], began: Bool = false,
        eventEnds: [Int]? = nil
    ) {
        var answers = answers
        var committed = true
        var published = outside.map { Optional($0) }
        var origins = [ConnectionID?](repeating: nil, count: outside.count)
        if !work.events.isEmpty {
            do {
                try commitToStore(work)
            } catch {
                state.storeRefusal.withLock { $0 = "the store refused the last commit: \(error)" }
                committed = false
                log.log(.error, "commit failed, batch rolled back: \(error)")
                if store.isShared {
                    // The reload publishes everything from the turn's start, others' changes too.
                    answers = rollBackShared(batch, error: error, turnStart: (outside.first ?? work.events[0]).rev - 1)
                    published = []
                } else if batch.count > 1 {
                    return retryApart(batch)
                } else {
                    if case .group(let c, _, let session)? = batch.first {
                        refusedWriters.note(RefusedWriters.key(c, session), at: now)
                    }
                    answers = rollBack(batch, error: error)
                }
            }
        } else if began && !store.abandonWrite() {
            // What the turn caught from other nodes is not confirmed durable, and its answers
            // were computed with it: none is sent. The turn runs again on what the reload
            // confirms (which publishes the caught changes once they are durable), or is
            // refused while the store cannot be read.
            log.log(.error, "could not confirm the other nodes' changes durable; reloading")
            committed = false
            let turnStart = outside.first.map { $0.rev - 1 } ?? state.publishedRevision.load(ordering: .relaxed)
            answers = rollBackShared(
                batch, error: StorageError("could not confirm the other nodes' changes durable"), turnStart: turnStart)
            published = []
        }
        // Other nodes' changes come first: they were durable before anything of this batch.
        if committed {
            published += work.events.map { Optional($0) }
            origins += work.origins
        }
        let ends = committed ? eventEnds?.map { $0 + outside.count } : nil
        var old = Model.empty
        state.writing { _ in
            if state.holdsCommitted { old = state.dropCommitted() }
            state.uncommitted = pendingReload != nil
            publishInOrder(&published, origins: origins, answers: answers, ends: ends)
            if stopped { state.postAfterRelease(state.loops.map { _ in [LoopMessage.goodbye] }) }
        }
        published.removeAll()  // what fell out of the history, freed outside the lock
        _ = consume old  // the chunks only the committed copy held, likewise
    }

    /// Makes `work` durable in one store commit, timed and counted; the store takes writes
    /// again once it took one.
    private func commitToStore(_ work: CommitWork) throws {
        let start = Histogram.now()
        try store.commit(
            CommitBatch(
                mutations: work.mutations, events: work.events, revision: work.events.last?.rev ?? 0,
                mutationEnds: work.ends))
        executor.stats.commitSeconds.observe(since: start)
        executor.stats.commitChanges.observe(Double(work.events.count))
        state.storeRefusal.withLock { $0 = nil }
        noteStoredHistory()
    }

    /// Queues events and answers so that every connection's stream follows the turn's order.
    /// Events first: once anyone holds the OK of a change, its event is already queued for
    /// every watcher. A watching connection with an answer gets the events made before its
    /// group ran before its answer (its own inside it, just before their replies), and those
    /// made after it after its answer: the published events are cut there (only there, so a
    /// turn of writers that watch nothing still fans out as one piece per watcher).
    private func publishInOrder(
        _ published: inout [Event?], origins: [ConnectionID?], answers: [GroupAnswer], ends: [Int]?
    ) {
        var from = 0
        var waiting: [GroupAnswer] = []
        if let ends {
            for (k, a) in answers.enumerated() {
                waiting.append(a)
                guard state.hub.withLock({ $0.watches(a.conn) }) else { continue }
                state.publish(&published, range: from..<max(from, ends[k]), origins: origins, stats: executor.stats)
                from = max(from, ends[k])
                deliver(waiting)
                waiting.removeAll()
            }
        } else {
            waiting = answers
        }
        state.publish(&published, range: from..<published.count, origins: origins, stats: executor.stats)
        deliver(waiting)
    }

    /// Records the store's oldest retained revision for STATS.
    func noteStoredHistory() {
        if let oldest = try? store.oldestRevision() { state.storedHistoryOldest.store(oldest, ordering: .relaxed) }
    }

    /// Queues `answers` behind the events published before them (call holding the write
    /// lock; they are posted when it is released: `Publication`).
    func deliver(_ answers: [GroupAnswer]) {
        var outbox = Array(repeating: [LoopMessage](), count: state.loops.count)
        for a in answers { outbox[a.conn.loop].append(.answer(a)) }
        state.postAfterRelease(outbox)
    }

    /// Answers a batch again from the state as it now is, with `failing` requests refused.
    func rerun(_ batch: [EngineInput], _ lease: ModelLease, failing: Failing?) -> [GroupAnswer] {
        var work = CommitWork()
        return batch.compactMap {
            guard case .group(let c, let units, let session) = $0 else { return nil }
            return run(c, units, lease, session: session, failing: failing, work: &work)
        }
    }

    /// A local store refused the commit of one group's changes: nothing of it is stored. The
    /// model goes back to the one committed before the turn (held for it: no read of the
    /// store), the group's writes are answered `ERR STORAGE`, and the rest of it is answered
    /// again from the model as committed. The next turn tries the store again.
    private func rollBack(_ batch: [EngineInput], error: Error) -> [GroupAnswer] {
        let message = "the change could not be saved (\(error)); nothing was changed, try again later"
        var refused = Model.empty
        let answers = state.writing { lease in
            refused = state.restoreCommitted()
            state.uncommitted = false
            return rerun(batch, lease, failing: Failing(message: message, everything: false))
        }
        _ = consume refused  // freed outside the lock
        return answers
    }

    /// A local store refused the commit of several groups' changes: the model goes back to the
    /// one committed before the turn, and each half of the groups runs again as a turn of its
    /// own, halved again while refused, so that a refusal reaches only the groups whose own
    /// changes the store cannot take (one writer's oversized adds refuse none of the others'
    /// writes). Costs at most about 2·log₂(groups) more commits for each group refused.
    private func retryApart(_ batch: [EngineInput]) {
        var refused = Model.empty
        state.writing { _ in
            refused = state.restoreCommitted()
            state.uncommitted = false
        }
        _ = consume refused
        let half = batch.count / 2
        process(Array(batch[..<half]))
        process(Array(batch[half...]))
    }
}
