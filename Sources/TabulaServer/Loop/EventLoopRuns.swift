import Glibc
import TabulaProtocol

/// Running a connection's requests on its loop. A run answers what it may here and hands the
/// rest on. The events a run publishes for this loop's watchers are queued before its
/// replies: at once, when they come back from the post (`OwnLoopEvents`); otherwise (the
/// inbox held something) the run parks its replies until the inbox is drained. The inbox
/// is drained only between runs (`settlePublished`), never inside one: a debug build stops
/// at any drain or run begun inside a run.
extension EventLoop {
    /// Runs `units` for `c`, then queues the replies of every run that parked behind what
    /// this loop's inbox held (its events among them). The entry point for a connection's
    /// requests (reads, held requests made ready, HTTP exchanges); it is never entered from
    /// inside a run.
    func run(_ c: Connection, _ units: ArraySlice<RoutedUnit>) {
        runHere(c, units)
        settlePublished()
    }

    /// Answers what may be answered here, in order; the first unit that must run on the
    /// engine goes there with everything after it, as one group with a copy of the session.
    /// Stops, holding the rest, while a replay runs or the client has much output unread;
    /// stops at a run that published events while this loop's inbox held something, its
    /// replies parked (`settlePublished`; `OwnLoopEvents`).
    private func runHere(_ c: Connection, _ units: ArraySlice<RoutedUnit>) {
        #if DEBUG
            precondition(!inRun, "a run began inside a run")
            // The handed-back events go straight to their watchers: no other connection may
            // hold parked replies (an earlier inline event among them) for them to overtake.
            precondition(published.isEmpty, "a run began while another's replies were parked")
        #endif
        inRun = true
        defer { inRun = false }
        var rest = units
        while !rest.isEmpty && c.phase.runs {
            if c.replay != nil || c.output.count >= config.outputPause {
                c.held = Array(rest) + c.held
                return
            }
            let began = Histogram.now()
            let r = executor.runOnLoop(
                rest, conn: c.id, session: &c.session, cache: &cache, work: &runWork, own: &ownEvents)
            batchSeconds.observe(since: began)
            queueOwnEvents()
            let after = rest.dropFirst(r.answered)
            let unwatched = c.session.unwatchedAt.take()
            if let t = unwatched { settleAfter = max(settleAfter, t) }
            // Read and cleared here: only a write hold sets it, and a later read run must not
            // park behind a flag an earlier write left.
            let inboxed = ownEvents.inboxed
            ownEvents.inboxed = false
            if inboxed || unwatched != nil {
                // The inbox held something as the run posted (events of earlier holds, for
                // this connection too perhaps), and the run's own events for this loop's
                // watchers went behind it: all queued ahead of these replies (as the
                // engine's are), so that no reply reflects a change whose event its
                // connection was not sent.
                c.parked = ParkedRun(run: r, answers: runWork.answers, rest: after)
                runWork.answers = []  // held by the parked run now
                c.phase = .awaiting(bye: nil)
                published.append(c)
                return
            }
            let next = finish(c, r, runWork.answers, after)
            if !runWork.answers.isEmpty { runWork.answers.removeAll(keepingCapacity: true) }
            guard let next else { return }
            rest = next
        }
    }

    /// Queues the events a run just published for this loop's own watchers, handed back
    /// rather than posted to its inbox (`OwnLoopEvents`): ahead of the run's replies and of
    /// anything the inbox gets after them.
    private func queueOwnEvents() {
        guard !ownEvents.sends.isEmpty else { return }
        for m in ownEvents.sends {
            guard case .send(let id, let bytes) = m, let w = conns[id.raw] else { continue }
            push(bytes, to: w)
        }
        ownEvents.sends.emptyKeepingAtMost(SharedState.outboxKept)
    }

    /// Hands a run's answers to the connection's codec and does what its last unit asked:
    /// close, a replay, the rest to the engine or the authenticator. Returns the units left
    /// to run here (nil: none now).
    private func finish(
        _ c: Connection, _ r: RequestExecutor.LoopRun, _ answers: [Answer], _ rest: ArraySlice<RoutedUnit>
    ) -> ArraySlice<RoutedUnit>? {
        let (close, replay) = deliver(answers, to: c)
        if close { c.phase = .closing }
        if r.answered > 0 { markDirty(c) }
        if let plan = replay {
            startReplay(c, plan)
            return rest
        }
        guard r.toEngine && c.phase.runs && !rest.isEmpty else { return rest }
        if rest[rest.startIndex].route == .authenticator {
            authenticator.submit(c.id, Array(rest), session: c.session, peer: c.peer, life: c.life)
        } else {
            toEngine.append(.group(c.id, Array(rest), session: c.session))
        }
        c.phase = .awaiting(bye: nil)
        awaitingAnswers += 1
        return nil
    }

    /// Drains the inbox (queuing the events the parked runs published, and everything posted
    /// before them), then queues each parked run's replies and goes on with what its
    /// connection sent after it; again while those runs publish. A connection the drain
    /// closed runs nothing more; one the server began to close gets its replies, then its
    /// goodbye.
    func settlePublished() {
        while !published.isEmpty {
            // An UNWATCH's: the publications that had its watches are in the inboxes first
            // (each is being posted by the thread that made it; a wait of a post or two).
            var spins = 0
            while executor.state.publicationsPosted.load(ordering: .acquiring) < settleAfter {
                spins += 1
                if spins > 64 { sched_yield() }
            }
            settleAfter = 0
            drainInbox()
            let settling = published
            published.removeAll(keepingCapacity: true)
            // One at most: every `run` settles before it returns, so no other connection's
            // replies are parked while a run hands its events straight to their watchers.
            assert(settling.count == 1, "\(settling.count) runs parked at once")
            for c in settling {
                guard let p = c.parked, case .awaiting(let bye) = c.phase else { continue }
                c.parked = nil
                c.phase = .open
                if let bye {
                    _ = deliver(p.answers, to: c)
                    sayBye(c, bye)
                    continue
                }
                if let rest = finish(c, p.run, p.answers, p.rest), !rest.isEmpty { runHere(c, rest) }
                if !c.held.isEmpty && c.phase.runs { ready.append(c) }
            }
        }
    }

    /// Runs what connections sent while their group was at the engine, now answered; hands
    /// any new group to the engine before the loop can sleep.
    func runReady() {
        while let c = ready.popLast() {
            if let x = c.exchange, c.held.isEmpty {
                if conns[c.id.raw] != nil { x.serve(c, on: self) }
                continue
            }
            guard conns[c.id.raw] != nil, c.phase.runs, c.replay == nil, !c.held.isEmpty else { continue }
            let held = c.held, bytes = c.heldBytes
            c.held.removeAll()
            c.heldBytes = 0
            run(c, held[...])
            // What went on to the engine (behind a SYNC, a write) waits there: still held.
            if c.phase.awaits && c.parked == nil && conns[c.id.raw] != nil { c.heldBytes = bytes }
            guard notePartialInput(c) else { continue }
            refreshReading(c)
        }
        if !toEngine.isEmpty {
            engine.submit(toEngine)
            toEngine.removeAll(keepingCapacity: true)
        }
    }
}
