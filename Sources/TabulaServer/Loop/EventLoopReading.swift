import CLinuxShims
import Glibc
import TabulaHTTP
import TabulaProtocol

/// Reading: a connection's bytes, cut into requests by its codec, run or held.
extension EventLoop {
    /// Bytes a loop reads in one turn, all connections together: 16 reads of 64 KiB. Past
    /// it the turn's other readable connections are read first in the next turn (epoll
    /// reports them again), so that clients sending megabytes at once cannot hold a turn, and
    /// every other client's requests, for longer than decoding this takes (Redis reads 16 KiB
    /// a client a turn).
    static let readBudget = 1 << 20

    /// Reads from `c` now, or within the turn's budget at the next turn (in the order they
    /// were left).
    func readOrDefer(_ c: Connection) {
        guard !c.readDeferred else { return }  // in line already
        guard readThisTurn < EventLoop.readBudget else {
            c.readDeferred = true
            readLater.append(c)
            return
        }
        readFrom(c)
    }

    /// Reads from the connections left by the last turn, first, within this turn's budget.
    func readDeferred() {
        var i = 0
        while i < readLater.count && readThisTurn < EventLoop.readBudget {
            let c = readLater[i]
            c.readDeferred = false
            if conns[c.id.raw] != nil { readFrom(c) }
            i += 1
        }
        readLater.removeFirst(i)
    }

    func readFrom(_ c: Connection) {
        guard !c.readClosed, !c.readPaused else { return }
        if c.tls != nil {
            readTLS(c)
            return
        }
        let n = readBuffer.withUnsafeMutableBytes { read(c.fd, $0.baseAddress, $0.count) }
        if n < 0 {
            let e = errno
            if e == EAGAIN || e == EWOULDBLOCK || e == EINTR { return }
            closeConnection(c)
            return
        }
        if n == 0 {
            // Half-close: answer what was asked (a last line without a newline too), then close.
            endOfInput(c)
            guard conns[c.id.raw] != nil else { return }
            c.readClosed = true
            updateInterest(c)
            closeIfDone(c)
            return
        }
        readThisTurn += n
        take(c, n)
    }

    /// Handles `n` bytes just read into `readBuffer` for `c`: its codec cuts them into
    /// requests (the line protocol's `LineDecoder`, or the `RequestCodec` its first bytes
    /// chose), which run now or are held behind what they wait for.
    func take(_ c: Connection, _ n: Int) {
        stats.add(stats.bytesIn, n)
        noteActive(c)
        if let x = c.exchange {
            return readBuffer.withUnsafeBytes { x.take(UnsafeRawBufferPointer(rebasing: $0[0..<n]), of: c, on: self) }
        }
        if c.phase == .greeting { chooseCodec(c, n) }
        units.removeAll()
        let requests = readBuffer.withUnsafeBytes { raw in
            let bytes = UnsafeRawBufferPointer(rebasing: raw[0..<n])
            if let codec = c.codec {
                codec.unauthenticated = c.session.authRequired && c.session.user == nil
                return codec.decode(bytes, into: &units) { self.facts(c) }
            }
            return decodeLines(c, bytes)
        }
        if requests > 0 {
            c.lastRequest = nowSeconds
            c.hasRequested = true
        }
        let holds = !c.phase.runs || c.replay != nil || !c.held.isEmpty
        if holds {
            c.held += units.all  // after what they wait for, in order
            c.heldBytes += n
        }
        guard notePartialInput(c) else { return }  // what it holds counted, held requests too
        if !holds {
            run(c, units.all[...])
            // What went to the engine with its group (behind a SYNC, a write) waits there:
            // counted as held until the group's answer (a read's bytes at most).
            if c.phase.awaits && c.parked == nil && conns[c.id.raw] != nil {
                c.heldBytes += n
                guard notePartialInput(c) else { return }
            }
        }
        refreshReading(c)
    }

    /// Pauses reading from `c` while its held requests are many (until they are few again)
    /// or wait for its client to read; resumes it otherwise.
    func refreshReading(_ c: Connection) {
        if c.held.isEmpty && c.heldBytes > 0 && !c.phase.awaits {
            c.heldBytes = 0
            recountHeldInput(c)
        }
        let tooMany =
            c.held.count > EventLoop.pauseAbove || c.heldBytes > EventLoop.pauseAboveBytes
            || (c.readPaused && c.held.count >= EventLoop.resumeBelow) || c.exchange?.holdsTooMuch == true
        let waiting =
            (!c.held.isEmpty || c.exchange?.hasWaiting == true)
            && (c.replay != nil || c.output.count >= config.outputPause)
        let pause = tooMany || waiting
        guard pause != c.readPaused else { return }
        c.readPaused = pause
        if !pause && c.partialSince != nil { c.partialSince = nowSeconds }  // its clock starts again
        updateInterest(c)
    }
}
