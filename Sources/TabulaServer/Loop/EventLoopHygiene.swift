import CLinuxShims
import TabulaProtocol

/// Connection hygiene: input held (begun, held behind a wait, queued in a transaction)
/// counted against one bound for the whole server, and
/// once a second, connections that make no progress (or, with `--idle-timeout`, sit idle)
/// are told why and closed.
extension EventLoop {
    /// Counts the input held for `c` (`Connection.heldInput`) against the server-wide bound;
    /// past it, sheds (`shedHeldInput`). False when `c` was closed.
    func notePartialInput(_ c: Connection) -> Bool {
        if c.partialInput == 0 {
            c.partialSince = nil
        } else if c.partialSince == nil {
            c.partialSince = nowSeconds
        }
        let grew = recountHeldInput(c)
        guard grew > 0 && stats.partialInput.load(ordering: .relaxed) > config.maxPartialInput else { return true }
        shedHeldInput()
        return conns[c.id.raw] != nil
    }

    /// The server holds more input than `--max-partial-input`: this loop's holders are
    /// closed, largest first, while the total is over the bound and this loop holds more than
    /// its share of it (the bound over the I/O threads; past that, the excess is another
    /// loop's, shed at its next growth or its sweep within a second). A client that holds
    /// nothing is never closed for it.
    func shedHeldInput() {
        let share = config.maxPartialInput / max(1, executor.state.loops.count)
        var mine = conns.values.reduce(0) { $0 + $1.partialCounted }
        while stats.partialInput.load(ordering: .relaxed) > config.maxPartialInput, mine > share,
            let largest = conns.values.max(by: { $0.partialCounted < $1.partialCounted }), largest.partialCounted > 0
        {
            let held = largest.partialCounted
            mine -= held
            closeWithBye(
                largest,
                .stalled(
                    "too much input held for all clients (limit \(config.maxPartialInput) bytes), this connection's \(held) the most; "
                        + "end each request with a newline, read replies before sending more, EXEC transactions sooner"
                ), log: "it held \(held) bytes of input, the most, past the server's bound")
        }
    }

    /// Seconds a snapshot may go unread, while others want places, before its connection
    /// gives its place back.
    static let snapshotUnreadSeconds = 3

    /// A connection whose snapshot has sent no step for `snapshotUnreadSeconds` (each waits
    /// until its client has read the last) is closed while places are short (more than half
    /// taken, or its owner's share full: the attacker and the victim may share an account),
    /// or while its copy pins an old version of the model past the newest
    /// `SnapshotCount.mostOldVersions` pinned (each may hold a whole model's worth of what
    /// writes replaced since): its place, and its memory, go back within seconds rather than at
    /// `--stall-timeout`. Once a second.
    func shedUnreadSnapshots() {
        let places = executor.state.snapshots
        guard places.inUse > 0 else { return }
        let short = places.inUse * 2 > places.most
        let head = executor.state.publishedRevision.load(ordering: .relaxed)
        for c in Array(conns.values) {
            guard let held = c.replay?.plan.snapshot?.held,
                nowSeconds - c.replayStepAt >= EventLoop.snapshotUnreadSeconds
            else { continue }
            let tooOld = places.pinsTooOld(held.revision, head: head)
            guard short || tooOld || places.heldBy(c.session.owner) >= places.perOwner else { continue }
            stats.add(stats.slowConsumersDropped, 1)
            let why =
                tooOld
                ? "its copy (revision \(held.revision)) is an old version past the \(SnapshotCount.mostOldVersions) kept for unread snapshots"
                : "snapshot places are short: its place goes to others"
            closeWithBye(
                c,
                .slowConsumer(
                    "a snapshot not read for \(EventLoop.snapshotUnreadSeconds) s while \(why); read what you are sent, then WATCH again"
                ), log: "its snapshot went unread for \(EventLoop.snapshotUnreadSeconds) s while \(why)")
        }
    }

    /// Brings `c`'s share of `ServerStats.partialInput` up to date; returns how much it grew.
    @discardableResult
    func recountHeldInput(_ c: Connection) -> Int {
        let now = c.heldInput
        let grew = now - c.partialCounted
        if grew != 0 {
            stats.partialInput.wrappingAdd(grew, ordering: .relaxed)
            c.partialCounted = now
        }
        return grew
    }

    /// Checks the server's unread output against its bound, recording the most it was seen
    /// at: called after each unit of work that can queue output (a request's replies, a
    /// drain of events), so the bound is passed by at most one such unit per loop.
    func shedIfOverBound() {
        let total = stats.unreadOutput.load(ordering: .relaxed)
        ServerStats.raise(stats.unreadOutputPeak, to: total)
        if total > config.maxUnreadOutput { shedUnreadOutput() }
    }

    /// The server holds more unread output than `maxUnreadOutput`: this loop's connections
    /// that hold unread output are dropped, those that would take longest to read what they
    /// hold at the rate they read first (`ShedOrder`), until the total is under seven eighths
    /// of the bound (or none is left here; the other loop sheds its own at its next check).
    /// Every holder is a candidate, however little it holds: 5,000 watchers that never read
    /// and each hold less than the output pause pass the bound together.
    func shedUnreadOutput() {
        guard shedFoundNone != nowSeconds, shedSkippedAt != nowNanos else { return }
        let target = config.maxUnreadOutput / 8 * 7
        // The longest to read what they hold at the rate they read go first (`ShedOrder`).
        let waiting = conns.values.filter { $0.unreadBytes > 0 }
        let order = ShedOrder.order(
            waiting.map { ShedOrder.Candidate(unread: $0.unreadBytes, took: $0.drained.recent(at: nowSeconds)) })
        if order.isEmpty { shedFoundNone = nowSeconds }
        let drop = ShedOrder.dropCount(
            held: order.map { waiting[$0].unreadBytes }, total: stats.unreadOutput.load(ordering: .relaxed),
            target: target, share: target / max(1, executor.state.loops.count))
        // Under its share: the excess is another loop's to drop; not looked at again this turn.
        if drop == 0 { shedSkippedAt = nowNanos }
        // What the dropped held goes back to the system at the next sweep.
        if drop > 0 { closedSinceTrim = max(closedSinceTrim, EventLoop.closesBeforeTrim) }
        for c in order.prefix(drop).map({ waiting[$0] }) {
            stats.add(stats.slowConsumersDropped, 1)
            closeWithBye(
                c,
                .slowConsumer(
                    "the server holds too much unread output for all clients (limit \(config.maxUnreadOutput) bytes) and this connection reads it slowest for what it holds; read what you ask for"
                ),
                log: "\(c.unreadBytes) bytes unread while the server's unread output passed \(config.maxUnreadOutput)",
                timedOut: false)
        }
    }

    /// Checks every connection for timeouts, once a second.
    func sweepIfDue() {
        guard nowSeconds != lastSweep else { return }
        lastSweep = nowSeconds
        if closedSinceTrim >= EventLoop.closesBeforeTrim || (closedSinceTrim > 0 && conns.isEmpty) {
            // Many connections gave their buffers back: return that memory to the system
            // rather than keep it mapped for connections that may never come.
            closedSinceTrim = 0
            tabula_trim_memory()
        }
        refreshClients()
        if stats.partialInput.load(ordering: .relaxed) > config.maxPartialInput { shedHeldInput() }
        shedUnreadSnapshots()
        for c in Array(conns.values) { c.exchange?.keepAlive(c, on: self) }
        sendProgress()
        let stall = config.stallTimeout, idle = config.idleTimeout
        guard stall > 0 || idle > 0, !shuttingDown else { return }
        for c in Array(conns.values) { check(c, stall: stall, idle: idle) }
    }

    /// Closed connections after which memory is given back to the system.
    static let closesBeforeTrim = 256

    private func check(_ c: Connection, stall: Int, idle: Int) {
        let now = nowSeconds
        if stall > 0 {
            // While reading is paused the line is incomplete because the server stopped
            // reading (for the output, checked below), not because the client is slow.
            if let since = c.partialSince, !c.readPaused, now - since >= stall {
                closeWithBye(
                    c, .stalled("no complete request line in \(stall) s; end each request with a newline"),
                    log: "an incomplete line for \(stall) s")
                return
            }
            if !c.hasRequested && !c.readClosed && now - c.lastRequest >= stall {
                closeWithBye(
                    c, .stalled("no request in the first \(stall) s after connecting"), log: "no request in \(stall) s")
                return
            }
            if !c.output.isEmpty && now - c.lastDrained >= stall {
                stats.add(stats.slowConsumersDropped, 1)
                closeWithBye(
                    c, .stalled("none of the output read in \(stall) s; read faster or watch less"),
                    log: "\(c.output.count) bytes unread for \(stall) s")
                return
            }
        }
        if stall > 0, let t = c.openTransaction, Histogram.now() - t.begun >= UInt64(stall) * 1_000_000_000 {
            closeWithBye(
                c,
                .stalled(
                    "a transaction open for \(stall) s without EXEC (--stall-timeout); nothing of it ran: send MULTI, its requests and EXEC together"
                ), log: "a transaction open for \(stall) s")
            return
        }
        if stall > 0 && now - c.lastRequest >= stall && c.exchange?.isIdle(c) == true {
            log.log(.debug, "closing connection \(c.id.raw): kept alive \(stall) s with no request", conn: c.id.raw)
            closeConnection(c)
            return
        }
        if idle > 0 && now - c.lastRequest >= idle && c.output.isEmpty && !c.phase.awaits && c.replay == nil,
            executor.state.hub.withLock({ !$0.watches(c.id) })
        {
            closeWithBye(c, .idle(seconds: idle), log: "idle for \(idle) s")
        }
    }

    /// Sends `* BYE reason` when it can go without cutting a line, then closes.
    /// A close the server chose while its client may be reading (its user was removed or
    /// changed, the history was replaced): what is queued for it goes first, then the
    /// goodbye, and the connection closes once that is written. Nothing more is read from it;
    /// a client that does not read is closed by the stall timeout as any other. A group at
    /// the engine when it comes closes the connection after its answer (see `.answer`).
    /// An HTTP request in progress is answered the status that fits the reason.
    func closeAfterOutput(_ c: Connection, _ reason: CloseReason, log why: String) {
        if c.phase.isEnding { return }  // closing already
        if case .awaiting(_?) = c.phase { return }
        log.log(.info, "closing connection \(c.id.raw) from \(c.peer) once its output is sent: \(why)", conn: c.id.raw)
        c.readClosed = true
        c.held.removeAll()
        c.replay = nil  // what it had of a replay is sent; the rest, and what waited behind it, is not
        c.snapshotDue = nil
        c.readerStep = nil
        c.deferred.removeAll()
        c.deferredCount = 0
        guard !c.phase.awaits else {
            c.phase = .awaiting(bye: reason)
            return updateInterest(c)
        }
        sayBye(c, reason)
    }

    /// Queues the goodbye `reason` says, and closes once all is written.
    func sayBye(_ c: Connection, _ reason: CloseReason) {
        if let bye = goodbye(c, reason) { c.output.appendRaw(bye) }
        c.phase = .closing
        updateInterest(c)
        markDirty(c)
    }

    func closeWithBye(
        _ c: Connection, _ reason: CloseReason, log why: String, level: LogLevel = .info, timedOut: Bool = true
    ) {
        if timedOut { stats.add(stats.timedOut, 1) }
        log.log(level, "closing connection \(c.id.raw) from \(c.peer): \(why)", conn: c.id.raw)
        if c.output.atLineBoundary, let bye = goodbye(c, reason) { sendNow(c, bye) }
        closeConnection(c)
    }
}
