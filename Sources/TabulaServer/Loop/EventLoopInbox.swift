import CLinuxShims
import TabulaProtocol

/// What the engine, the other loops and the helper threads post to a loop.
extension EventLoop {
    func drainInbox() {
        #if DEBUG
            precondition(!inRun, "the inbox was drained inside a run")
        #endif
        // The loop's batch buffer, swapped with the inbox's (`take(into:)`); taken out while in
        // use, so that a drain inside this one would take into a buffer of its own.
        var batch: [LoopMessage] = []
        swap(&batch, &inboxBatch)
        inbox.take(into: &batch)
        defer {
            batch.removeAll(keepingCapacity: true)
            swap(&batch, &inboxBatch)
        }
        for m in batch {
            switch m {
            case .send(let id, let bytes):
                guard let c = conns[id.raw] else { continue }
                push(bytes, to: c)
            case .answer(let a):
                takeAnswer(a)
            case .adopt(let fd, let peer, let kind, let tls):
                adoptPosted(fd, peer, kind, tls: tls)
            case .replayStep(let id, let r, let step):
                guard let c = conns[id.raw], c.replay != nil else { continue }
                c.readerStep = (r, step)  // taken by `pumpReplays` within the turn's budget
            case .usersReloaded:
                for c in Array(conns.values) where c.session.user != nil { refreshUser(c) }
            case .dropAll(let reason):
                for c in Array(conns.values) { closeAfterOutput(c, reason, log: reason.message) }
            case .stopReading:
                shuttingDown = true
                if index == 0 { for l in listeners { _ = tabula_epoll_del(epfd, l.fd) } }
                for c in conns.values where !c.readClosed {
                    c.readClosed = true
                    updateInterest(c)
                }
                // Lines already read are handed over before the engine is told to stop.
                engine.submit(toEngine)
                toEngine.removeAll(keepingCapacity: true)
                handle.readingStopped.store(true, ordering: .releasing)
            case .goodbye:
                saidGoodbye = true
                for c in conns.values where !c.phase.isEnding {
                    c.replay = nil  // the goodbye is the last thing it gets
                    c.snapshotDue = nil
                    c.readerStep = nil
                    if c.phase.awaits {  // after the replies it awaits
                        c.phase = .awaiting(bye: .shutdown)
                        continue
                    }
                    if let bye = goodbye(c, .shutdown) { c.output.appendRaw(bye) }
                    c.phase = .closing
                    markDirty(c)
                }
            }
        }
    }

    /// A group's answer from the engine or the authenticator: its replies join the
    /// connection's output, and what the connection sent meanwhile runs at the top of the
    /// turn, not here (this may be inside a request's run: events drained before its replies).
    private func takeAnswer(_ a: GroupAnswer) {
        // counted before the lookup: its connection may have closed meanwhile
        awaitingAnswers = max(0, awaitingAnswers - 1)
        guard let c = conns[a.conn.raw], case .awaiting(let bye) = c.phase else { return }
        c.phase = .open
        _ = deliver(a.answers, to: c)
        if let session = a.session { c.session = session }
        // the server closes it: its answer first, then the goodbye
        if let bye { return sayBye(c, bye) }
        if c.session.user != nil {
            refreshUser(c)
            guard c.phase == .open else { return }  // closed by it: nothing follows its goodbye
        }
        if a.close { c.phase = .closing }
        if !a.rest.isEmpty { c.held = a.rest + c.held }
        markDirty(c)
        if let plan = a.replay { startReplay(c, plan) }
        if !c.held.isEmpty || c.exchange?.hasWaiting == true { ready.append(c) }
    }
}
