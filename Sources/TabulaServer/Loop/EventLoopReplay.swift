import CLinuxShims
import TabulaProtocol

/// Replays: a `WATCH … FROM` counts and sends retained history a step at a time, only while
/// the client's unread output is small. Meanwhile the connection's requests wait (held) and
/// the events pushed to it wait too (deferred), so that everything it receives stays in order:
/// the reply, the replayed events, then whatever came live.
extension EventLoop {
    /// Starts `plan` on `c` and takes its first steps at once (a short replay ends here).
    func startReplay(_ c: Connection, _ plan: ReplayPlan) {
        c.replay = Replay(plan)
        c.replayStepAt = nowSeconds  // its first step may wait for the turn's budget
        replaying.append(c)
        pump(c)
    }

    /// Steps every replay whose client has read what it was sent, within the turn's budget;
    /// the one to start with rotates, so that no replay waits for the others for long.
    func pumpReplays() {
        if replayStepsThisTurn > 0 { noteReplaySteps() }
        replayBudget = EventLoop.replayStepsPerTurn
        if !replaying.isEmpty { replaying.swapAt(0, replayTurn % replaying.count) }
        replayTurn &+= 1
        var i = 0
        while i < replaying.count {
            let c = replaying[i]
            if conns[c.id.raw] != nil, c.replay != nil {
                pump(c)
            }
            if conns[c.id.raw] == nil || c.replay == nil {
                replaying.swapAt(i, replaying.count - 1)
                replaying.removeLast()
            } else {
                i += 1
            }
        }
    }

    /// Whether a replay could take a step now (the loop must then not sleep).
    var replayCanStep: Bool {
        replaying.contains {
            $0.replay != nil
                && ($0.readerStep != nil || snapshotMayGo($0)
                    || (!$0.replayAtReader && $0.replayWaitsUntil <= nowNanos && $0.output.count < Replay.pageBytes))
                && conns[$0.id.raw] != nil
        }
    }

    /// Whether a replay waits for its client to read (the loop then sleeps at most
    /// `replayRecheck` before it looks again).
    var replayWaitsForClient: Bool {
        replaying.contains { $0.replay != nil && ($0.replayWaitsUntil > nowNanos || $0.snapshotDue != nil) }
    }

    /// Bytes a replay may leave sent but not taken by its client (the kernel's send queue)
    /// before it waits: a client that does not read costs a replay one page and this, not
    /// the socket buffers' megabytes of encoded events.
    static let replayInFlight: Int32 = 64 * 1024
    /// How long a replay that waits for its client is left before its queue is looked at
    /// again: 5 ms, doubling while the client still has not read, up to 20 ms (a client that
    /// reads but lags is then sent 64 KiB at least every 20 ms).
    static let replayRecheck: UInt64 = 5_000_000
    static let replayRecheckMost: UInt64 = 20_000_000

    /// Whether `c`'s replay may take a step: its last page is in the kernel, and its client
    /// has taken all but `replayInFlight` of what it was sent (else it waits a while).
    private func replayMayStep(_ c: Connection) -> Bool {
        guard c.replayWaitsUntil <= nowNanos, c.output.count < Replay.pageBytes else { return false }
        guard tabula_unsent(c.fd) < EventLoop.replayInFlight else {
            c.replayWait = min(max(c.replayWait * 2, EventLoop.replayRecheck), EventLoop.replayRecheckMost)
            c.replayWaitsUntil = nowNanos + c.replayWait
            return false
        }
        c.replayWait = 0
        return true
    }

    /// Replay steps per loop turn, all replays together (a step reads at most one window of
    /// revisions: a few milliseconds from disk), so that replays cannot keep the loop from
    /// its other clients however many there are.
    static let replayStepsPerTurn = 4

    /// Takes the replay's steps that memory can serve; the first it cannot goes to the
    /// `ReplayReader` (the replay waits for its answer, `take` goes on from there).
    private func pump(_ c: Connection) {
        if c.snapshotDue != nil {
            guard replayBudget > 0, sendSnapshotInStream(c), c.replay != nil else { return }
            replayBudget -= 1
        }
        if replayBudget > 0, let (r, step) = c.readerStep {
            replayBudget -= 1
            c.readerStep = nil
            c.replayAtReader = false
            c.replay = r
            take(step, of: r, for: c)
        }
        while replayBudget > 0, !c.replayAtReader, c.snapshotDue == nil, let before = c.replay, replayMayStep(c) {
            replayBudget -= 1
            var r = before
            let step = r.step(history)
            if case .failed(let gap) = step, gap.elsewhere {
                c.replayAtReader = true
                replayReader.take(c.id, before)  // the same step, from the store
                return
            }
            c.replay = r
            take(step, of: r, for: c)
        }
    }

    /// Counts the turn's replay steps into the server's figures.
    private func noteReplaySteps() {
        stats.replaySteps.wrappingAdd(replayStepsThisTurn, ordering: .relaxed)
        ServerStats.raise(stats.replayStepsMostInATurn, to: replayStepsThisTurn)
        replayStepsThisTurn = 0
    }

    /// Queues what a step of `r` made for `c`.
    func take(_ step: Replay.Step, of r: Replay, for c: Connection) {
        if case .counting = step {
        } else {
            replayStepsThisTurn += 1
            c.replayStepAt = nowSeconds
        }
        var bytes: [UInt8] = []
        switch step {
        case .counting:
            return
        case .acknowledge, .acknowledgeSnapshot:
            // A snapshot in the stream has no reply: its `* SNAPSHOT` push went before.
            guard !r.plan.inStream else { break }
            var ack = WatchAck(prefix: r.plan.prefix, rev: r.plan.rev)
            if case .acknowledge(let n) = step { ack.replaying = n } else { ack.snapshot = true }
            var reply = Reply(message: ack.message)
            if r.plan.subscribeReply { reply.subscription = executor.subscription(c.id, r.plan.prefix) }
            Codec.reply(reply, tag: r.plan.tag, format: c.session.format, into: &bytes)
        case .events(let events):
            let f = c.session.format
            for e in events {
                Codec.event(e, channel: r.plan.prefix, format: f, into: &bytes)
            }
        case .rows(let rows):
            for row in rows { Codec.watchPush(row, channel: r.plan.prefix, format: c.session.format, into: &bytes) }
        case .finished:
            // The watcher now holds everything through the replay's end: one number to resume from.
            Codec.watchPush(
                .synced(rev: r.plan.through), channel: r.plan.prefix, format: c.session.format, into: &bytes)
            c.output.append(bytes)
            bytes.removeAll()
            finishReplay(c)
        case .failed(let gap):
            failReplay(c, r, gap)
        }
        c.output.append(bytes)
        markDirty(c)
    }

    /// The replay is done: what was deferred follows it, and held requests run next.
    private func finishReplay(_ c: Connection) {
        c.replay = nil
        c.replayAtReader = false
        for piece in c.deferred { c.output.append(piece) }
        c.deferred.removeAll()
        c.deferredCount = 0
        if !c.held.isEmpty && c.phase.runs { ready.append(c) }
        refreshReading(c)
    }

    /// Before the reply: the WATCH takes back the watch it added and is answered with an
    /// error, or when it asked for a snapshot and the history moved on, run again as `WATCH
    /// prefix SNAPSHOT` (next, before anything the client sent after it; an event stream
    /// is refused `EXPIRED`, which makes a page load its copy again). After the reply: one
    /// that asked for a snapshot goes on as one in the stream; otherwise the client has part
    /// of the replay and no way to get the rest here, so it is told where to resume and closed.
    private func failReplay(_ c: Connection, _ r: Replay, _ gap: HistoryGap) {
        if goesOnAsSnapshot(c, r, gap), beginSnapshotInStream(c, r, gap) { return }
        let format = c.session.format
        if !r.acknowledged, r.plan.snapshotAsked, gap.failure == nil, c.exchange == nil {
            let others = executor.state.hub.withLock { hub in
                if r.plan.addedWatch { _ = hub.remove(c.id, r.plan.prefix) }
                return hub.watchCount(of: c.id)
            }
            // The events pushed meanwhile are of revisions the snapshot holds: with no other
            // watch they are all the watch's own, and go (none at or before the reply's rev).
            if others == 0 {
                c.deferred.removeAll()
                c.deferredCount = 0
            }
            var again = Request(tag: r.plan.tag, command: .watch(prefix: r.plan.prefix, from: nil, snapshot: true))
            again.subscribeReply = r.plan.subscribeReply
            c.held.insert(units.routed(.request(again)), at: 0)
            finishReplay(c)
            return
        }
        if !r.acknowledged {
            let error =
                gap.failure.map { TabulaError(.storage, "could not read the history: \($0); try again later") }
                ?? RequestExecutor.expired(r.plan.after, oldest: gap.oldest)
            c.output.append(Codec.reply(Reply(error: error), tag: r.plan.tag, format: format))
            if r.plan.addedWatch { _ = executor.state.hub.withLock { $0.remove(c.id, r.plan.prefix) } }
            finishReplay(c)
            return
        }
        let why =
            gap.failure
            ?? "the history moved past revision \(r.cursor) while it was replayed (the oldest held is now \(gap.oldest))"
        log.log(.warn, "connection \(c.id.raw): replay of \(r.plan.prefix) stopped: \(why)", conn: c.id.raw)
        // Past the history's edge the cursor is gone too: resuming from it would be refused.
        let next =
            gap.failure == nil
            ? "what came after revision \(r.cursor) is no longer kept, so reconnect and WATCH \(r.plan.prefix) SNAPSHOT (or LS to resync, then WATCH without FROM)"
            : "reconnect and WATCH \(r.plan.prefix) FROM \(r.cursor) to go on"
        if let bye = goodbye(c, .replayStopped("\(why); \(next)")) { c.output.appendRaw(bye) }
        c.replay = nil
        c.phase = .closing
    }

    /// Queues event bytes for `c`: after its replay when one is running (past the output
    /// limit the client is dropped, as for unread output).
    func push(_ bytes: [UInt8], to c: Connection) {
        guard c.replay != nil else {
            if c.output.chunkedBody, !bytes.isEmpty {
                c.output.appendRaw(sharedChunk.framing(bytes))
            } else {
                c.output.append(bytes)
            }
            c.exchange?.pushed(at: nowSeconds)
            // Only pushes can pass the limit: replies wait for the client to read (see
            // `refreshReading`), so one large reply never drops a client that reads.
            if c.output.count > config.outputLimit {
                dropSlowConsumer(c)
                return
            }
            // A full socket is written when epoll says it drained (EPOLLOUT is asked while
            // output waits): 5,000 unread streams cost no write attempt each per event.
            if !c.socketFull { markDirty(c) }
            return
        }
        c.deferred.append(bytes)
        c.deferredCount += bytes.count
        if c.deferredCount > config.outputLimit { dropSlowConsumer(c) }
    }
}
