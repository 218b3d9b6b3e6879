import Glibc
import TabulaProtocol

/// The greeting, and the choice of codec on the line port. A line client is greeted first
/// (`* HELLO tabula 3 …`), but a Redis client speaks first and cannot read a greeting. So a
/// new connection is greeted at its first bytes, unless they open one of `RequestCodecs`
/// (RESP: a multibulk request or HELLO), or after `greetingDelay` if it sends nothing:
/// `nc` and `tabula` see the greeting as before (tabula sends an empty line at once, so it
/// waits for nothing).
extension EventLoop {
    /// How long a silent new connection waits for its greeting: a Redis client sends its
    /// first request within this of connecting (they connect when they have one to send).
    static let greetingDelay: UInt64 = 100_000_000

    /// Greets `c` at its first bytes, or after the delay.
    func greetLater(_ c: Connection) {
        c.phase = .greeting
        ungreeted.append((c, nowNanos + EventLoop.greetingDelay))
    }

    /// Sends `c` its greeting, if it has not had it.
    func greet(_ c: Connection) {
        guard c.phase == .greeting else { return }
        c.phase = .open
        let rev = executor.state.publishedRevision.load(ordering: .acquiring)
        c.output.append(
            Codec.push(
                .hello(
                    protocolVersion: WireEncoder.protocolVersion, server: "tabulad/\(ServerConfig.version)", rev: rev,
                    id: executor.state.historyID), format: .text))
        markDirty(c)
    }

    /// The first `n` bytes of `c` (in `readBuffer`) choose its codec: one of
    /// `RequestCodecs` (not greeted: its client spoke first), or the line protocol after
    /// its greeting.
    func chooseCodec(_ c: Connection, _ n: Int) {
        let opened = readBuffer.withUnsafeBytes {
            RequestCodecs.opened(by: UnsafeRawBufferPointer(rebasing: $0[0..<n]))
        }
        guard let opened else { return greet(c) }
        c.phase = .open
        open(opened, on: c)
    }

    /// Makes `codec` the connection's, for its life: chosen by its first bytes, or by the
    /// port it came to (`--resp-port`).
    func open(_ codec: any RequestCodec.Type, on c: Connection) {
        c.codec = codec.init(maxRequest: config.maxLine, unauthenticated: c.session.authRequired)
        c.session.format = codec.firstFormat
    }

    /// What a codec may tell `c`'s client about the server.
    func facts(_ c: Connection) -> ServerFacts {
        let state = executor.state
        return ServerFacts(
            connection: c.id, historyID: state.historyID, revision: state.publishedRevision.load(ordering: .acquiring),
            port: config.port,
            uptimeSeconds: Int((ContinuousClock.now - stats.started).components.seconds),
            connectedClients: stats.connections.load(ordering: .relaxed),
            totalConnections: stats.totalConnections.load(ordering: .relaxed), requests: stats.requests,
            durable: executor.durable)
    }

    /// Greets the connections whose delay has passed (each turn, after its reads: a look at
    /// the first). One whose first bytes have arrived is left to them (a busy loop may come
    /// to its read after the delay): they choose its codec.
    func greetDue() {
        while ungreetedHead < ungreeted.count, ungreeted[ungreetedHead].due <= nowNanos {
            let c = ungreeted[ungreetedHead].conn
            ungreetedHead += 1
            if c.phase == .greeting && !EventLoop.hasInput(c) { greet(c) }
        }
        // Greeted connections leave the list at once when it is all greeted (it held closed
        // connections, and the buffers they read into, until the next one came), and in a
        // long list once most of it is.
        if ungreetedHead == ungreeted.count && ungreetedHead > 0 {
            ungreeted.removeAll(keepingCapacity: true)
            ungreetedHead = 0
        } else if ungreetedHead > 1024 && ungreetedHead * 2 > ungreeted.count {
            ungreeted.removeFirst(ungreetedHead)
            ungreetedHead = 0
        }
    }

    /// Whether bytes wait unread on `c`'s socket (a TLS connection's are in its session, not
    /// seen here: it is greeted by the clock alone).
    static func hasInput(_ c: Connection) -> Bool {
        guard c.tls == nil else { return false }
        var byte: UInt8 = 0
        return recv(c.fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) > 0
    }

    /// How long the loop may sleep: until the next greeting is due, and while a replay waits
    /// for its client to read, until it is looked at again.
    var sleepTimeout: Int32 {
        guard replayWaitsForClient else { return sleepMillis }
        let recheck = Int32(EventLoop.replayRecheck / 1_000_000)
        return sleepMillis < 0 ? recheck : min(sleepMillis, recheck)
    }

    /// How long the loop may sleep: until the next greeting is due, at most.
    var sleepMillis: Int32 {
        let base: Int32 = shuttingDown ? 100 : conns.isEmpty && closedSinceTrim == 0 ? -1 : 1000
        guard ungreetedHead < ungreeted.count else { return base }
        let due = ungreeted[ungreetedHead].due
        let wait = Int32(clamping: due > nowNanos ? (due - nowNanos + 999_999) / 1_000_000 : 0)
        return base < 0 ? wait : min(base, wait)
    }
}
