import CLinuxShims
import CTLSShim
import Glibc
import TabulaProtocol

/// Accepting: loop 0 accepts, refuses past the connection limits (all, and per address) with
/// a `* BYE`, and deals connections out round-robin; the loop that gets one greets it.
extension EventLoop {
    /// Accepts what `listener` has: with no per-address limit on the Unix socket, in TLS on
    /// the TLS port.
    func acceptAll(from listener: Listening) {
        while !shuttingDown {
            var hi: UInt64 = 0, lo: UInt64 = 0
            let fd = tabula_accept_peer(listener.fd, &hi, &lo)
            let peer = PeerAddress(hi: hi, lo: lo)
            if fd < 0 {
                let e = tabula_errno()
                if e != EAGAIN && e != EWOULDBLOCK && e != ECONNABORTED {
                    log.log(.warn, "accept: \(String(cString: strerror(e)))")
                }
                return
            }
            let now = stats.connections.wrappingAdd(1, ordering: .relaxed).newValue
            if now > config.maxConnections {
                refuse(
                    fd, peer, .full("too many connections (limit \(config.maxConnections)); try again later"),
                    kind: listener.kind, log: "limit of \(config.maxConnections) reached")
                continue
            }
            // The last tenth of the slots is kept for addresses holding fewer than 16.
            let nearlyFull = now > config.maxConnections - config.maxConnections / 10
            if listener.kind != .unix,
                let why = stats.addresses.admit(peer, limit: config.maxConnectionsPerAddress, nearlyFull: nearlyFull)
            {
                switch why {
                case .limit:
                    refuse(
                        fd, peer,
                        .full(
                            "too many connections from your address (limit \(config.maxConnectionsPerAddress)); close some first"
                        ), kind: listener.kind, log: "\(peer) has its limit of \(config.maxConnectionsPerAddress)")
                case .reserved:
                    refuse(
                        fd, peer,
                        .full(
                            "the server is nearly full and its last slots are kept for addresses with fewer than \(AddressBook.smallHolder) connections; close some first"
                        ), kind: listener.kind,
                        log: "\(peer) holds \(AddressBook.smallHolder) or more while the server is nearly full")
                }
                continue
            }
            _ = tabula_set_nodelay(fd)
            _ = tabula_bound_unsent(fd, EventLoop.kernelUnsent)
            stats.add(stats.totalConnections, 1)
            let loops = executor.state.loops
            let target = nextLoop % max(1, loops.count)
            nextLoop += 1
            if listener.kind.isTLS, let handshakes {
                // comes back to `target` done
                handshakes.take(.init(fd: fd, peer: peer, loop: target, kind: listener.kind))
            } else if target == index || loops.isEmpty {
                adopt(fd, peer, listener.kind, tls: nil)
            } else {
                loops[target].post([.adopt(fd, peer, listener.kind, tls: nil)])
            }
        }
    }

    /// Bytes not yet sent that the kernel takes per connection (TCP_NOTSENT_LOWAT; what is in
    /// flight is not counted, so a reading client's throughput is the window's): a client that
    /// never reads costs this much copying and kernel memory, not the autotuned send buffer's
    /// megabytes (5,000 unread event streams were 20 GB of copies into the kernel).
    static let kernelUnsent: Int32 = 128 * 1024

    /// Takes a freshly accepted socket (with its TLS session, past the handshake) into this
    /// loop and greets it in its codec (HTTP says nothing until asked).
    func adopt(_ fd: Int32, _ peer: PeerAddress, _ kind: Listening.Kind, tls: TLSSession?) {
        serial += 1
        let c = Connection(
            id: ConnectionID(loop: index, serial: serial), fd: fd, peer: peer, transport: kind, maxLine: config.maxLine,
            now: nowSeconds, stats: stats)
        stats.openedConnection(kind)
        c.session.authRequired = config.users != nil
        c.session.network = c.peer.isOnThisMachine ? nil : c.peer.network.description
        c.tls = tls?.handle
        conns[c.id.raw] = c
        listNewClient(c)
        clientsPage = nil
        if !peer.isOnThisMachine { remoteClients += 1 }
        _ = tabula_epoll_add(epfd, fd, tabula_EPOLLIN, c.id.raw)
        c.interest = tabula_EPOLLIN
        if let (codec, format) = ExchangeCodecs.opened(for: kind) {
            c.exchange = codec
            c.session.format = format
        } else if kind == .resp {
            open(RESPExchange.self, on: c)
        } else {
            greetLater(c)
        }
        log.log(.debug, "connection \(c.id.raw) opened", conn: c.id.raw)
        if c.tls != nil { readFrom(c) }  // records the handshake read ahead are not seen by epoll
    }

    /// Says `* BYE reason` to a connection just accepted and closes it, uncounted; on the TLS
    /// port the handshake thread says it once the session is up (or just closes it, past a
    /// few hundred such refusals in handshake at once).
    private func refuse(_ fd: Int32, _ peer: PeerAddress, _ reason: CloseReason, kind: Listening.Kind, log why: String)
    {
        let plain = !kind.isTLS
        stats.connections.wrappingSubtract(1, ordering: .relaxed)
        stats.add(stats.rejectedConnections, 1)
        if !plain, let handshakes {
            handshakes.take(.init(fd: fd, peer: peer, loop: index, kind: kind, refusal: reason))
            log.log(.info, "refusing a TLS connection: \(why)")
            return
        }
        if plain {
            let bye = reason.refusalBytes(http: kind.isHTTP)
            _ = bye.withUnsafeBytes { tabula_send(fd, $0.baseAddress, $0.count) }
        }
        close(fd)
        log.log(.info, "refused a connection: \(why)")
    }

    /// A socket another loop accepted for this one (with its TLS session, past the
    /// handshake): adopted, or during shutdown told so and closed.
    func adoptPosted(_ fd: Int32, _ peer: PeerAddress, _ kind: Listening.Kind, tls: TLSSession?) {
        guard shuttingDown else { return adopt(fd, peer, kind, tls: tls) }
        let bye = CloseReason.shutdown.refusalBytes(http: kind.isHTTP)
        if let tls {
            _ = bye.withUnsafeBytes { tabula_tls_write(tls.handle, $0.baseAddress, Int32($0.count)) }
            tabula_tls_session_free(tls.handle)
        } else {
            _ = bye.withUnsafeBytes { tabula_send(fd, $0.baseAddress, $0.count) }
        }
        close(fd)
        stats.connections.wrappingSubtract(1, ordering: .relaxed)
        stats.addresses.release(peer)
    }

    /// The peer sent its last byte: a last line it left without a newline runs as a line
    /// (an HTTP request cut short is answered 400).
    func endOfInput(_ c: Connection) {
        if let x = c.exchange { return x.inputEnded(of: c, on: self) }
        if c.phase == .greeting { greet(c) }  // it sent nothing: a line client that only listens
        guard c.codec == nil, c.decoder.bufferedCount > 0 else { return }
        c.decoder.finish()
        take(c, 0)
    }
}
