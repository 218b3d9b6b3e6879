import CLinuxShims
import CTLSShim
import Foundation
import Glibc
import Synchronization
import TabulaHTTP
import TabulaProtocol

/// The thread that runs TLS handshakes, so that their public-key work (about a millisecond
/// each with RSA 2048) never runs on an I/O loop: loop 0 hands it each socket accepted on
/// the TLS port; once the handshake is done, the socket and its session go to the loop
/// chosen for it. A handshake not done in `--handshake-timeout` seconds is closed (there is
/// no session yet to say why in). Sessions in handshake hold little (OpenSSL releases its
/// record buffers between reads) and are bounded by the connection limits counted at accept.
///
/// It is made on its own thread and stays there (not Sendable): loop 0 and the server reach
/// it through its `HandshakeHandle`.
final class HandshakeWorker {
    /// A socket accepted on the TLS port, for `loop`.
    struct Accepted: Sendable {
        let fd: Int32
        let peer: PeerAddress
        let loop: Int
        /// The listener's kind, which the loop adopts it as (`.tls` or `.https`).
        var kind: Listening.Kind = .tls
        /// Refused at accept (a connection limit): told this in a `* BYE` once the session is
        /// up, then closed; not counted among the connections.
        var refusal: CloseReason? = nil
    }

    /// Refused connections in handshake at once, at most (more are closed unspoken).
    static let maxRefusing = 256
    /// How long a refused connection is waited for to close its end, at most.
    static let lingerLimit = Duration.seconds(2)
    private var refusing = 0

    private struct Pending {
        let accepted: Accepted
        /// Made when the first bytes (the ClientHello) arrive: a socket that sends nothing
        /// costs no session.
        var ssl: UnsafeMutableRawPointer?
        var since: ContinuousClock.Instant
        var interest: UInt32
        /// Refused and told so: waiting for the client's end (or the timeout) before the
        /// close, so that what it sent meanwhile cannot make the close a reset that loses
        /// the goodbye.
        var lingering = false
    }

    private let handle: HandshakeHandle
    private var inbox: WakeableInbox<Accepted?> { handle.inbox }
    private let context: TLSContext
    private let state: SharedState
    private let stats: ServerStats
    private let log: Log
    private let timeout: Int
    private let epfd = tabula_epoll_create()
    private var pending: [Int32: Pending] = [:]

    init(handle: HandshakeHandle, context: TLSContext, state: SharedState, stats: ServerStats, log: Log, timeout: Int) {
        self.handle = handle
        self.context = context
        self.state = state
        self.stats = stats
        self.log = log
        self.timeout = timeout
        _ = tabula_epoll_add(epfd, inbox.fd, tabula_EPOLLIN, UInt64(UInt32.max) + 1)
    }

    func run() {
        var events = [tabula_epoll_event](repeating: tabula_epoll_event(), count: 128)
        var stopped = false
        while !stopped {
            for item in inbox.take() {
                guard let a = item else {
                    stopped = true
                    break
                }
                start(a)
            }
            if stopped { break }
            let wait: Int32 = inbox.isEmptyMarkingSleep() ? (pending.isEmpty ? -1 : 500) : 0
            let n = tabula_epoll_wait(epfd, &events, Int32(events.count), wait)
            inbox.awake()
            for i in 0..<max(0, Int(n)) {
                let token = events[i].data
                if token > UInt64(UInt32.max) {
                    inbox.clearSignal()
                } else {
                    step(Int32(token))
                }
            }
            expire()
        }
        for fd in Array(pending.keys) { drop(fd, why: nil) }
        handle.finished.store(true, ordering: .releasing)
    }

    private func start(_ a: Accepted) {
        if a.refusal != nil {
            guard refusing < HandshakeWorker.maxRefusing else {
                close(a.fd)
                return
            }
            refusing += 1
        }
        pending[a.fd] = Pending(accepted: a, ssl: nil, since: .now, interest: tabula_EPOLLIN)
        _ = tabula_epoll_add(epfd, a.fd, tabula_EPOLLIN, UInt64(a.fd))
    }

    /// Runs the handshake of `fd` as far as the socket allows.
    private func step(_ fd: Int32) {
        guard var p = pending[fd] else { return }
        if p.lingering { return linger(fd) }
        if p.ssl == nil {
            if let said = plainRefusal(fd, p.accepted.kind) { return refuse(fd, &p, saying: said, in: nil) }
            guard let ssl = tabula_tls_server_session(context.handle, fd) else {
                return drop(fd, why: "no TLS session could be made")
            }
            p.ssl = ssl
            pending[fd] = p
        }
        guard let ssl = p.ssl else { return }
        let r = tabula_tls_handshake(ssl)
        switch r {
        case 1:
            if let reason = p.accepted.refusal {
                return refuse(fd, &p, saying: reason.refusalBytes(http: p.accepted.kind.isHTTP), in: ssl)
            }
            pending[fd] = nil
            _ = tabula_epoll_del(epfd, fd)
            state.loops[p.accepted.loop].post([.adopt(fd, p.accepted.peer, p.accepted.kind, tls: TLSSession(ssl))])
        case Int32(TABULA_TLS_WANT_READ), Int32(TABULA_TLS_WANT_WRITE):
            // waiting for the client: hold no buffers
            if r == Int32(TABULA_TLS_WANT_READ) { tabula_tls_release_buffers(ssl) }
            let want = r == Int32(TABULA_TLS_WANT_READ) ? tabula_EPOLLIN : tabula_EPOLLOUT
            if want != p.interest {
                p.interest = want
                _ = tabula_epoll_mod(epfd, fd, want, UInt64(fd))
                pending[fd] = p
            }
        default:
            var text = [CChar](repeating: 0, count: 256)
            tabula_tls_last_error(&text, Int32(text.count))
            drop(
                fd,
                why:
                    "TLS handshake failed: \(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))"
            )
        }
    }

    /// Says `bytes` (in the session, or in the clear when there is none) and waits for the
    /// client's end before closing, so that what it sent meanwhile cannot make the close a
    /// reset that loses them.
    private func refuse(_ fd: Int32, _ p: inout Pending, saying bytes: [UInt8], in ssl: UnsafeMutableRawPointer?) {
        if let ssl {
            _ = bytes.withUnsafeBytes { tabula_tls_write(ssl, $0.baseAddress, Int32($0.count)) }
        } else {
            _ = bytes.withUnsafeBytes { tabula_send(fd, $0.baseAddress, $0.count) }
        }
        shutdown(fd, Int32(SHUT_WR))
        if p.interest != tabula_EPOLLIN { _ = tabula_epoll_mod(epfd, fd, tabula_EPOLLIN, UInt64(fd)) }
        p.interest = tabula_EPOLLIN
        p.lingering = true
        p.since = .now
        pending[fd] = p
        linger(fd)
    }

    /// What to say in the clear to a client whose first byte is a letter: a plain request
    /// (`GET /`, `PING`) to a port that speaks TLS, told so instead of a handshake failure
    /// (a TLS record starts with a byte below 0x20). Nil for anything else.
    private func plainRefusal(_ fd: Int32, _ kind: Listening.Kind) -> [UInt8]? {
        var first: UInt8 = 0
        guard recv(fd, &first, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 1,
            (0x41...0x5A).contains(first) || (0x61...0x7A).contains(first)
        else { return nil }
        return kind.isHTTP
            ? HTTPResponse.refusal(.badRequest, "this port speaks HTTPS: ask for https://, not http://").encoded(
                close: true)
            : Codec.push(
                .bye(reason: "this port speaks TLS: connect with tabula --tls, or openssl s_client"), format: .text)
    }

    /// Reads and drops what a refused client still sends; closes at its end.
    private func linger(_ fd: Int32) {
        var scratch = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 { continue }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { return }
            return drop(fd, why: nil)
        }
    }

    /// Closes the handshakes older than the timeout.
    private func expire() {
        let lingered = ContinuousClock.now - HandshakeWorker.lingerLimit
        for (fd, p) in pending where p.lingering && p.since < lingered { drop(fd, why: nil) }
        guard timeout > 0 else { return }
        let limit = ContinuousClock.now - .seconds(timeout)
        for (fd, p) in pending where !p.lingering && p.since < limit {
            stats.add(stats.timedOut, 1)
            drop(fd, why: "no TLS handshake in \(timeout) s")
        }
    }

    private func drop(_ fd: Int32, why: String?) {
        guard let p = pending.removeValue(forKey: fd) else { return }
        _ = tabula_epoll_del(epfd, fd)
        if let ssl = p.ssl { tabula_tls_session_free(ssl) }
        close(fd)
        if p.accepted.refusal != nil { refusing -= 1 } else { release(p.accepted.peer) }
        if let why { log.log(.debug, "closing a TLS connection from \(p.accepted.peer): \(why)") }
    }

    private func release(_ peer: PeerAddress) {
        stats.connections.wrappingSubtract(1, ordering: .relaxed)
        stats.addresses.release(peer)
    }
}

/// What other threads may reach of the handshake thread: its inbox and whether it returned.
final class HandshakeHandle: Sendable {
    let inbox = WakeableInbox<HandshakeWorker.Accepted?>()
    /// Set once the thread has returned.
    let finished = Atomic<Bool>(false)

    /// Takes a socket just accepted on the TLS port (any thread).
    func take(_ a: HandshakeWorker.Accepted) { inbox.post([a]) }

    /// Closes every handshake in progress and returns (shutdown).
    func stop() { inbox.post([nil]) }
}

/// An OpenSSL session handed from the handshake thread to a loop, which owns it from then on
/// (never used by two threads at once).
struct TLSSession: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer
    init(_ handle: UnsafeMutableRawPointer) { self.handle = handle }
}
