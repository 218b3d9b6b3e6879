import CLinuxShims
import CTLSShim
import Glibc
import TabulaProtocol

/// Writing: each turn flushes the connections that got output; a connection that a push
/// takes past the output limit is dropped as a slow consumer (`push`); closing unregisters
/// it everywhere.
extension EventLoop {

    func markDirty(_ c: Connection) {
        if !c.dirty {
            c.dirty = true
            dirty.append(c)
        }
    }

    /// Writes the turn's output, the connections made dirty last first. A turn queues the
    /// events it drains before the replies that follow them (that is what keeps events
    /// causal: see `run`), so the last made dirty are mostly clients waiting for a reply,
    /// whose next request waits on it, and the first mostly watchers, whose events then go
    /// out a few sends later in the same turn. A writer with 100 watchers on its loop is
    /// answered before its watchers' sends, not after them (docs/performance.md gives the
    /// fan-out figures). Each connection's own output keeps its order, so causality does not
    /// depend on this. A turn writes about `flushBytesPerTurn` of what it made dirty; the
    /// connections it does not reach (the first made dirty: watchers) are carried, still
    /// dirty, and written oldest first within a budget of their own, this turn and the next:
    /// 5,000 streams' sends cannot keep a reply waiting for all of them, and none is left
    /// behind by those made dirty after it.
    func flushDirty() {
        swap(&flushing, &dirty)  // both keep their storage: no allocation per turn
        var budget = EventLoop.flushBytesPerTurn
        var i = flushing.count
        while i > 0, budget > 0 {
            i -= 1
            budget -= flushDirty(flushing[i])
        }
        var carriedBudget = EventLoop.flushBytesPerTurn, done = 0
        while done < carried.count, carriedBudget > 0 {
            carriedBudget -= flushDirty(carried[done])
            done += 1
        }
        carried.removeFirst(done)
        carried.append(contentsOf: flushing[..<i])  // not reached: carried, still marked dirty
        flushing.removeAll(keepingCapacity: true)
    }

    /// Writes dirty `c` (unless it closed meanwhile); returns the bytes written.
    private func flushDirty(_ c: Connection) -> Int {
        c.dirty = false
        guard conns[c.id.raw] != nil else { return 0 }
        return flush(c)
    }

    /// Bytes one turn writes of what it made dirty before the rest is carried, and again of
    /// what was carried: a few milliseconds of sends each.
    static let flushBytesPerTurn = 4 << 20

    /// Writes what `c`'s socket takes of its output; returns the bytes written.
    @discardableResult
    func flush(_ c: Connection) -> Int {
        var sent = 0
        if !c.output.isEmpty {
            let (result, written) = c.tls.map { c.output.flush(tls: $0) } ?? c.output.flush(fd: c.fd)
            counts.wrote(written)
            sent = written
            if written > 0 {
                c.lastDrained = nowSeconds
                c.drained.add(written, at: nowSeconds)
            }
            if case .wouldBlock = result { c.socketFull = c.tls == nil } else { c.socketFull = false }
            if case .failed = result {
                closeConnection(c)
                return sent
            }
            // The client read: requests held for it may run again.
            if (!c.held.isEmpty || c.exchange?.hasWaiting == true) && c.phase.runs && c.replay == nil
                && c.output.count < config.outputPause
            {
                ready.append(c)
            }
        }
        refreshReading(c)
        updateInterest(c)
        closeIfDone(c)
        return sent
    }

    func closeIfDone(_ c: Connection) {
        guard c.output.isEmpty else { return }
        if c.phase == .closing
            || (c.readClosed && !c.phase.awaits && c.replay == nil && c.held.isEmpty && !shuttingDown)
        {
            closeConnection(c)
        }
    }

    func dropSlowConsumer(_ c: Connection) {
        stats.add(stats.slowConsumersDropped, 1)
        closeWithBye(
            c, .slowConsumer("output limit of \(config.outputLimit) bytes exceeded; read faster or watch less"),
            log: "\(c.unreadBytes) bytes unread, over the output limit of \(config.outputLimit)", level: .warn,
            timedOut: false)
    }

    func updateInterest(_ c: Connection) {
        guard conns[c.id.raw] != nil else { return }
        var ev: UInt32 = 0
        if !c.readClosed && !c.readPaused { ev |= tabula_EPOLLIN }
        if !c.output.isEmpty || c.tlsWantsWrite { ev |= tabula_EPOLLOUT }
        guard ev != c.interest else { return }
        _ = tabula_epoll_mod(epfd, c.fd, ev, c.id.raw)
        c.interest = ev
    }

    func closeConnection(_ c: Connection) {
        guard conns.removeValue(forKey: c.id.raw) != nil else { return }
        c.phase = .closed
        if !c.peer.isOnThisMachine { remoteClients -= 1 }
        _ = tabula_epoll_del(epfd, c.fd)
        c.life.end()
        if let ssl = c.tls {
            tabula_tls_session_free(ssl)
            c.tls = nil
        }
        EventLoop.discardUnreadInput(c.fd)
        close(c.fd)
        c.output.removeAll()
        stats.connections.wrappingSubtract(1, ordering: .relaxed)
        stats.closedConnection(c.transport)
        stats.addresses.release(c.peer)
        stats.partialInput.wrappingSubtract(c.partialCounted, ordering: .relaxed)
        c.partialCounted = 0
        closedSinceTrim += 1
        clientsPage = nil
        executor.state.hub.withLock { _ = $0.remove(c.id, nil) }
        log.log(.debug, "connection \(c.id.raw) closed", conn: c.id.raw)
    }

    /// Reads and drops what the client sent that was never read (requests behind a goodbye),
    /// up to `mostDiscarded` bytes: closing a socket with unread input sends a reset, and a
    /// reset makes the client's system drop what it had received and not yet read, the
    /// goodbye and the replies before it. Bounded, and never waits.
    static func discardUnreadInput(_ fd: Int32) {
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        var total = 0
        while total < mostDiscarded {
            let n = recv(fd, &scratch, scratch.count, Int32(MSG_DONTWAIT))
            if n <= 0 { return }
            total += n
        }
    }

    /// Most unread bytes dropped at a close (see `discardUnreadInput`).
    static let mostDiscarded = 256 * 1024
}
