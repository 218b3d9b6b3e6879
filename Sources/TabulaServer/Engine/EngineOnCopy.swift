import Foundation
import TabulaModel
import TabulaProtocol

/// Writes whose cost grows with a whole list (`ServerTraits.onCopy`: BANDS re-sections every
/// item) run on a copy of the model, outside the lock: readers go on meanwhile, and the lock
/// is held only to take the copy and to swap the result in.
extension Engine {
    static func runsOnCopy(_ unit: RoutedUnit) -> Bool { unit.server.onCopy }

    /// Runs the group's first request on a copy of the model and swaps the copy in; the
    /// rest of the group goes back to its loop. Writes the loops would run themselves come
    /// here meanwhile (and wait), so the model does not change under the copy.
    func processOnCopy(_ c: ConnectionID, _ units: [RoutedUnit], session: Session) {
        if case .transaction(let queue, let tag) = units[0].unit {
            return processTransaction(c, queue, tag: tag, units, session: session)
        }
        guard case .request(let r) = units[0].unit else { return }
        let rest = Array(units.dropFirst())
        let batch = [EngineInput.group(c, [units[0]], session: session)]
        // A shared store's head is locked for the whole computation (other nodes wait). A
        // turn given up or deferred carries the whole group to the next.
        guard let start = beginTurn([.group(c, units, session: session)]) else { return }
        let outside = state.writing { applyStored(start.caught, $0) }
        if start.deferred { return conclude([], answers: [], work: CommitWork(), outside: outside) }
        let refusal =
            start.failing.map { $0.error(for: r.command) }
            ?? state.reading(onEngine: true, { Dispatcher.refusal(r, session: session, lease: $0) })
        if let refusal {
            let answer = executor.refused(refusal, tag: r.tag, format: session.format)
            conclude(
                [],
                answers: [GroupAnswer(conn: c, answers: [answer], session: nil, close: false, replay: nil, rest: rest)],
                work: CommitWork(), outside: outside, began: start.began)
            return
        }
        var (copy, rng) = state.writing { lease in
            state.writesOnEngine = true
            return (lease.changing, state.rng)
        }
        executor.stats.engineCounts.ran(r.command.verb)
        var s = session
        var outcome = copy.apply(
            r.command, ifRev: r.ifRev, viewer: &s.viewer, now: Date().timeIntervalSince1970, rng: &rng)
        let event = outcome.event.take()
        state.writing { lease in
            swap(&lease.changing, &copy)  // the old model is freed below, outside the lock
            lease.changing.eventViews = state.eventViews  // a reload meanwhile changed them
            state.rng = rng
            state.writesOnEngine = false
            // Until the commit, the loops read the model as it was, and a refusal puts it back.
            if event != nil {
                state.keepCommitted(&copy)
                state.uncommitted = true
            }
        }
        var answers: [Answer] = []
        if let own = event.flatMap({ state.ownEvent($0, for: c, stats: executor.stats) }) { answers.append(own) }
        if let error = outcome.reply.error { executor.stats.failed(error.code) }
        answers.append(.reply(outcome.reply, tag: r.tag, format: s.format))
        let answer = GroupAnswer(
            conn: c, answers: answers, session: s == session ? nil : s, close: false, replay: nil, rest: rest)
        var work = CommitWork()
        if let event { work.add(event, outcome.mutations, origin: c) }
        conclude(batch, answers: [answer], work: work, outside: outside, began: start.began)
    }
}
