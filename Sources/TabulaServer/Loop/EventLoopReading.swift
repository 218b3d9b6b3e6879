import CLinuxShims
import Glibc
import TabulaHTTP
import TabulaProtocol

/// Reading: a connection's bytes, cut into requests by its codec, run or held.
extension EventLoop {
    /// Reads from `c` now, as much as the turn's share allows (`ReadShare`): past the turn's
    /// budget a little, and if it may have more, it is read first in the next turn (in the
    /// order they were left).
    func readOrDefer(_ c: Connection) {
        let allowed = ReadShare.bytes(readThisTurn: readThisTurn, inLine: c.readDeferred)
        guard allowed > 0 else { return }  // in line already
        let n = readFrom(c, atMost: allowed)
        if ReadShare.leftMore(read: n, allowed: allowed), conns[c.id.raw] != nil, !c.readDeferred {
            c.readDeferred = true
            readLater.append(c)
        }
    }

    /// Reads from the connections left by the last turn, first, within this turn's budget.
    func readDeferred() {
        var i = 0
        while i < readLater.count && readThisTurn < ReadShare.budget {
            let c = readLater[i]
            c.readDeferred = false
            if conns[c.id.raw] != nil { readFrom(c) }
            i += 1
        }
        readLater.removeFirst(i)
    }

    /// Reads at most `atMost` bytes from `c` (a TLS connection: a record, see `readTLS`) and
    /// takes them; returns how many were read.
    @discardableResult
    func readFrom(_ c: Connection, atMost: Int = ReadShare.full) -> Int {
        guard !c.readClosed, !c.readPaused else { return 0 }
        if c.tls != nil {
            readTLS(c)
            return 0
        }
        let n = readBuffer.withUnsafeMutableBytes { read(c.fd, $0.baseAddress, min($0.count, atMost)) }
        if n < 0 {
            let e = errno
            if e == EAGAIN || e == EWOULDBLOCK || e == EINTR { return 0 }
            closeConnection(c)
            return 0
        }
        if n == 0 {
            // Half-close: answer what was asked (a last line without a newline too), then close.
            endOfInput(c)
            guard conns[c.id.raw] != nil else { return 0 }
            c.readClosed = true
            updateInterest(c)
            closeIfDone(c)
            return 0
        }
        readThisTurn += n
        take(c, n)
        return n
    }

    /// Handles `n` bytes just read into `readBuffer` for `c`: its codec cuts them into
    /// requests (the line protocol's `LineDecoder`, or the `RequestCodec` its first bytes
    /// chose), which run now or are held behind what they wait for.
    func take(_ c: Connection, _ n: Int) {
        counts.read(n)
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
