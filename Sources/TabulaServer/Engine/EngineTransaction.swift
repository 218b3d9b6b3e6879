import Foundation
import TabulaModel
import TabulaProtocol

/// RESP's MULTI … EXEC: the queued requests run as one turn on a copy of the model, in
/// order, and the copy is swapped in only if every one of them was taken. A refusal (a
/// grant, a conflict of `IF REV`, an invalid argument, a missing path) leaves the model as it
/// was, and EXEC's answer is that refusal, naming the command. Taken, the changes are one
/// commit with consecutive revisions, their events published together, and EXEC answers an
/// array of the replies, as Redis does.
extension Engine {
    func processTransaction(
        _ c: ConnectionID, _ queue: [Request], tag: String?, _ units: [RoutedUnit], session: Session
    ) {
        let rest = Array(units.dropFirst())
        let batch = [EngineInput.group(c, [units[0]], session: session)]
        guard let start = beginTurn([.group(c, units, session: session)]) else { return }
        let outside = state.writing { applyStored(start.caught, $0) }
        if start.deferred { return conclude([], answers: [], work: CommitWork(), outside: outside) }
        func refuse(_ e: TabulaError) {
            let answer = executor.refused(e, tag: tag, format: session.format)
            conclude(
                [],
                answers: [GroupAnswer(conn: c, answers: [answer], session: nil, close: false, replay: nil, rest: rest)],
                work: CommitWork(), outside: outside, began: start.began)
        }
        if let failing = start.failing, let first = queue.first(where: { failing.covers($0.command) }) {
            return refuse(failing.error(for: first.command))
        }
        for (k, r) in queue.enumerated() {
            if let why = state.reading(onEngine: true, { Dispatcher.refusal(r, session: session, lease: $0) }) {
                return refuse(Engine.notApplied(k, of: queue, why))
            }
        }
        var (copy, rng) = state.writing { lease in
            state.writesOnEngine = true
            return (lease.changing, state.rng)
        }
        var s = session
        var replies: [Reply] = []
        var work = CommitWork()
        var events: [Event] = []
        let now = Date().timeIntervalSince1970
        for (k, r) in queue.enumerated() {
            executor.stats.engineCounts.ran(r.command.verb)
            var outcome =
                copy.read(r.command, viewer: &s.viewer).map { Outcome($0) }
                ?? copy.applyUnread(r.command, ifRev: r.ifRev, viewer: &s.viewer, now: now, rng: &rng)
            if let e = outcome.reply.error {
                executor.stats.failed(e.code)
                state.writing { _ in state.writesOnEngine = false }  // the copy is dropped: nothing was applied
                return refuse(Engine.notApplied(k, of: queue, e))
            }
            if let ev = outcome.event.take() {
                events.append(ev)
                work.add(ev, outcome.mutations, origin: c)
            }
            replies.append(outcome.reply)
        }
        swapIn(&copy, rng: rng, changed: !events.isEmpty)
        let answers =
            events.compactMap { state.ownEvent($0, for: c, stats: executor.stats) }
            + Engine.execAnswers(replies, of: queue, tag: tag, format: s.format)
        let answer = GroupAnswer(
            conn: c, answers: answers, session: s == session ? nil : s, close: false, replay: nil, rest: rest)
        conclude(batch, answers: [answer], work: work, outside: outside, began: start.began)
    }

    /// Puts the transaction's copy in place of the model (the old one is left in `copy`, to
    /// be freed outside the lock). Until the commit the loops read the model as it was, and a
    /// refusal puts it back.
    private func swapIn(_ copy: inout Model, rng: SplitMix64, changed: Bool) {
        state.writing { lease in
            swap(&lease.changing, &copy)
            lease.changing.eventViews = state.eventViews  // a reload meanwhile changed them
            state.rng = rng
            state.writesOnEngine = false
            if changed {
                state.keepCommitted(&copy)
                state.uncommitted = true
            }
        }
    }

    /// EXEC's answers after the events: in RESP an array of the replies, as Redis answers
    /// EXEC; in the line protocol one reply (`execReply`).
    static func execAnswers(_ replies: [Reply], of queue: [Request], tag: String?, format: WireFormat) -> [Answer] {
        guard format.namesChannel else { return [.reply(execReply(replies, of: queue), tag: tag, format: format)] }
        var header: [UInt8] = []
        RESPWriter(resp3: format == .resp3).array(replies.count, into: &header)
        return [.bytes(header)] + replies.map { .reply($0, tag: nil, format: format) }
    }

    /// EXEC's reply in the line protocol: a row per command (`2 SELECT: My Int: 64`; in
    /// JSON its whole reply, with its rows and revision), and how many were applied, with the
    /// last revision.
    static func execReply(_ replies: [Reply], of queue: [Request]) -> Reply {
        let rows = replies.enumerated().map { k, r in
            var json: [(String, JSONValue)] = [
                ("command", .string(queue[k].command.verb.rawValue)), ("message", .string(r.message)),
                ("data", .array(r.rows.map(\.json))),
            ]
            if let rev = r.rev { json.append(("rev", .int(Int64(rev)))) }
            return Row(text: "\(k + 1) \(queue[k].command.verb.rawValue): \(r.message)", json: .object(json))
        }
        var reply = Reply(rows: rows, message: "\(replies.count) applied as one")
        reply.rev = replies.compactMap(\.rev).max()
        return reply
    }

    /// EXEC's refusal: which command refused and why, and that nothing was applied.
    static func notApplied(_ k: Int, of queue: [Request], _ e: TabulaError) -> TabulaError {
        TabulaError(
            e.code,
            "the transaction was not applied: command \(k + 1) of \(queue.count) (\(queue[k].command.verb.rawValue)) was refused: \(e.message)"
        )
    }
}
