import TabulaModel
import TabulaProtocol
import TabulaStorage

/// What a turn's requests changed: the mutations and events to commit, in order.
struct CommitWork {
    var mutations: [Mutation] = []
    var events: [Event] = []
    /// Where each event's mutations end (see `CommitBatch.mutationEnds`).
    var ends: [Int] = []

    mutating func add(_ event: Event, _ m: [Mutation]) {
        events.append(event)
        mutations += m
        ends.append(mutations.count)
    }
}

/// Requests a turn answers `ERR STORAGE` instead of running.
struct Failing {
    /// The error's text.
    var message: String
    /// Every request that reads or writes the state (a node that must reload first), or
    /// only writes (the store cannot take them).
    var everything: Bool

    func covers(_ c: Command) -> Bool {
        if everything { return (c.traits.access == .read && c.verb != .stats) || c.traits.access == .write || c.verb == .watch }
        return c.isWrite
    }
}

extension Engine {
    /// Commits what a turn applied (rolling back on failure), then publishes its events and
    /// hands out its answers. `began`: the turn locked a shared store's head (released here).
    func conclude(_ batch: [EngineInput], answers: [GroupAnswer], work: CommitWork, outside: [Event], began: Bool = false) {
        var answers = answers
        var committed = true
        var published = outside.map { Optional($0) }
        if !work.events.isEmpty {
            do {
                try store.commit(CommitBatch(mutations: work.mutations, events: work.events, revision: work.events.last?.rev ?? 0, mutationEnds: work.ends))
                noteStoredHistory()
            } catch {
                committed = false
                log.log(.error, "commit failed, batch rolled back: \(error)")
                if store.isShared {
                    // The reload publishes everything from the turn's start, others' changes too.
                    answers = rollBackShared(batch, error: error, turnStart: (outside.first ?? work.events[0]).rev - 1)
                    published = []
                } else {
                    answers = rollBack(batch, error: error)
                }
            }
        } else if began {
            store.abandonWrite()
        }
        // Other nodes' changes come first: they were durable before anything of this batch.
        if committed { published += work.events.map { Optional($0) } }
        state.writing {
            state.uncommitted = pendingReload != nil
            // Events first: once anyone holds the OK of a change, its event is already queued
            // for every watcher (a watcher's own change's event lands just before its OK).
            state.publish(&published, stats: executor.stats)
            deliver(answers)
            if stopped { for loop in state.loops { loop.post([.goodbye]) } }
        }
        published.removeAll()  // what fell out of the history, freed outside the lock
    }

    /// Records the store's oldest retained revision for STATS.
    func noteStoredHistory() {
        if let oldest = try? store.oldestRevision() { state.storedHistoryOldest.store(oldest, ordering: .relaxed) }
    }

    func deliver(_ answers: [GroupAnswer]) {
        var outbox = Array(repeating: [LoopMessage](), count: state.loops.count)
        for a in answers { outbox[a.conn.loop].append(.answer(a)) }
        for i in outbox.indices where !outbox[i].isEmpty { state.loops[i].post(outbox[i]) }
    }

    /// Answers a batch again from the state as it now is, with `failing` requests refused.
    func rerun(_ batch: [EngineInput], failing: Failing?) -> [GroupAnswer] {
        var work = CommitWork()
        return batch.compactMap {
            guard case .group(let c, let units, let session) = $0 else { return nil }
            return run(c, units, session: session, failing: failing, work: &work)
        }
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
            return rerun(batch, failing: Failing(message: message, everything: false))
        }
    }
}
