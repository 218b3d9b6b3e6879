import CTLSShim
import Foundation
import Glibc
import TabulaProtocol

/// Why the client could not talk to the server.
public enum ClientError: Error, CustomStringConvertible, Equatable {
    /// Could not connect; the message says to what and why.
    case connectFailed(String)
    /// The server closed the connection (or it broke).
    case closed(String)
    /// Nothing arrived in time.
    case timeout(String)
    /// The server would not let us in (AUTH refused), or refused what a connection is set up
    /// with (a kept connection's FILTER).
    case refused(String)
    /// The wait was cancelled (Ctrl-C): the reply, when it comes, is dropped.
    case interrupted

    public var description: String {
        switch self {
        case .connectFailed(let m): return m
        case .closed(let m): return m
        case .timeout(let m): return m
        case .refused(let m): return m
        case .interrupted: return "cancelled"
        }
    }
}

/// Where a server listens: a TCP host and port, or a Unix socket.
public enum Endpoint: Sendable, Equatable, CustomStringConvertible {
    case tcp(host: String, port: Int)
    /// TLS over TCP, the server verified against `caFile` (PEM) or the system's CAs.
    case tls(host: String, port: Int, caFile: String?)
    case unix(String)

    public var description: String {
        switch self {
        case .tcp(let host, let port): return "\(host):\(port)"
        case .tls(let host, let port, _): return "\(host):\(port) (TLS)"
        case .unix(let path): return path
        }
    }
}

/// A TCP connection that reads and writes lines, with deadlines. No threads: `poll`.
public final class LineConnection {
    /// The socket, for callers that poll it with other descriptors.
    public let fd: Int32
    /// Received bytes cut into lines: the same decoder the server reads requests with.
    private var lines = LineDecoder(maxLine: LineConnection.maxLine)
    /// Reads lines of at most `n` bytes from now on (before anything is read: what is
    /// buffered goes).
    public func boundLines(to n: Int) { lines = LineDecoder(maxLine: n) }

    /// Lines longer than the bound seen (each came back as an empty line).
    public private(set) var linesTooLong = 0
    private var eof = false
    /// The longest line read (a JSON reply to `LS … LIMIT 10000` is one line of a few MB).
    public static let maxLine = 64 << 20

    /// Connects to `endpoint`, giving up after `timeout` seconds.
    public convenience init(_ endpoint: Endpoint, timeout: Double = 5) throws {
        switch endpoint {
        case .tcp(let host, let port): try self.init(host: host, port: port, timeout: timeout)
        case .tls(let host, let port, let caFile):
            try self.init(host: host, port: port, timeout: timeout)
            try startTLS(host: host, caFile: caFile, timeout: timeout)
        case .unix(let path): try self.init(unixPath: path)
        }
    }

    /// Connects to the Unix socket at `path`.
    public init(unixPath path: String) throws {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else {
            throw ClientError.connectFailed("the socket path \(path) is too long (at most 107 bytes)")
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard s >= 0 else { throw ClientError.connectFailed("socket: \(String(cString: strerror(errno)))") }
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard r == 0 else {
            let e = errno
            close(s)
            throw ClientError.connectFailed(
                "cannot connect to \(path): \(String(cString: strerror(e)))\(e == EACCES ? "; the socket is for its owner and group" : "; is tabulad running with --unix \(path)?")"
            )
        }
        _ = fcntl(s, F_SETFL, fcntl(s, F_GETFL) | O_NONBLOCK)
        fd = s
    }

    /// Connects to `host:port`, giving up after `timeout` seconds; from the local IPv4
    /// address `source` when given (a test speaking as several clients over loopback).
    public init(host: String, port: Int, timeout: Double = 5, source: String? = nil) throws {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var res: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &res)
        guard rc == 0, let first = res else {
            throw ClientError.connectFailed("cannot resolve \(host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(res) }
        var lastError = "no address"
        var ai: UnsafeMutablePointer<addrinfo>? = first
        while let a = ai {
            let s = socket(
                a.pointee.ai_family, a.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), a.pointee.ai_protocol)
            if s >= 0 {
                if let source, !LineConnection.bind(s, ipv4: source) {
                    close(s)
                    throw ClientError.connectFailed("cannot bind to \(source): \(String(cString: strerror(errno)))")
                }
                _ = fcntl(s, F_SETFL, fcntl(s, F_GETFL) | O_NONBLOCK)
                var r = connect(s, a.pointee.ai_addr, a.pointee.ai_addrlen)
                if r != 0 && errno == EINPROGRESS {
                    var p = pollfd(fd: s, events: Int16(POLLOUT), revents: 0)
                    if poll(&p, 1, Int32(timeout * 1000)) == 1 {
                        var err: Int32 = 0
                        var len = socklen_t(4)
                        getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len)
                        r = err == 0 ? 0 : -1
                        errno = err
                    } else {
                        errno = ETIMEDOUT
                    }
                }
                if r == 0 {
                    var one: Int32 = 1
                    setsockopt(s, Int32(IPPROTO_TCP), TCP_NODELAY, &one, 4)
                    fd = s
                    return
                }
                lastError = String(cString: strerror(errno))
                close(s)
            }
            ai = a.pointee.ai_next
        }
        throw ClientError.connectFailed(
            "cannot connect to \(host):\(port): \(lastError); is tabulad running there? (Scripts/run starts it)")
    }

    /// Binds socket `s` to the IPv4 address `ipv4` (any port).
    private static func bind(_ s: Int32, ipv4: String) -> Bool {
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        guard inet_pton(AF_INET, ipv4, &a.sin_addr) == 1 else { return false }
        return withUnsafePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// The TLS session and its context, on a TLS connection.
    private var tls: UnsafeMutableRawPointer?
    private var tlsContext: UnsafeMutableRawPointer?

    deinit {
        if let tls { tabula_tls_session_free(tls) }
        if let tlsContext { tabula_tls_context_free(tlsContext) }
        close(fd)
    }

    /// Runs the TLS handshake, verifying the server's certificate for `host`.
    private func startTLS(host: String, caFile: String?, timeout: Double) throws {
        var err = [CChar](repeating: 0, count: 512)
        guard let ctx = tabula_tls_client_context(caFile, &err, Int32(err.count)) else {
            throw ClientError.connectFailed(
                "TLS: \(String(decoding: err.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))\(caFile.map { " (--cacert \($0))" } ?? "")"
            )
        }
        tlsContext = ctx
        guard let session = tabula_tls_client_session(ctx, fd, host) else {
            throw ClientError.connectFailed("TLS: cannot make a session")
        }
        tls = session
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let r = tabula_tls_handshake(session)
            if r == 1 { return }
            guard r == Int32(TABULA_TLS_WANT_READ) || r == Int32(TABULA_TLS_WANT_WRITE),
                deadline.timeIntervalSinceNow > 0
            else {
                var text = [CChar](repeating: 0, count: 256)
                tabula_tls_last_error(&text, Int32(text.count))
                throw ClientError.connectFailed(
                    "TLS handshake with \(host) failed: \(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)); is that the TLS port, and does --cacert hold its certificate's issuer?"
                )
            }
            var p = pollfd(fd: fd, events: Int16(r == Int32(TABULA_TLS_WANT_READ) ? POLLIN : POLLOUT), revents: 0)
            _ = poll(&p, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000)))
        }
    }

    /// Sends what it can of `bytes`: the count (0 when it would block), or -1 on failure.
    private func transmit(_ bytes: ArraySlice<UInt8>) -> Int {
        if let tls {
            let r = bytes.withUnsafeBytes { tabula_tls_write(tls, $0.baseAddress, Int32($0.count)) }
            if r > 0 { return Int(r) }
            return r == Int32(TABULA_TLS_WANT_WRITE) || r == Int32(TABULA_TLS_WANT_READ) ? 0 : -1
        }
        let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if n >= 0 { return n }
        return errno == EAGAIN || errno == EINTR ? 0 : -1
    }

    /// Reads into `chunk`: the count, 0 at the end, -1 when nothing is there yet, -2 on failure.
    private func receive(_ chunk: inout [UInt8]) -> Int {
        if let tls {
            let r = chunk.withUnsafeMutableBytes { tabula_tls_read(tls, $0.baseAddress, Int32($0.count)) }
            if r >= 0 { return Int(r) }
            return r == Int32(TABULA_TLS_WANT_READ) || r == Int32(TABULA_TLS_WANT_WRITE) ? -1 : -2
        }
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n >= 0 { return n }
            if errno == EINTR { continue }
            return errno == EAGAIN ? -1 : -2
        }
    }

    /// Sends one line (a newline is added).
    public func send(_ line: String) throws {
        try sendRaw(Array((line + "\n").utf8))
    }

    /// Sends bytes as they are.
    public func sendRaw(_ bytes: [UInt8]) throws {
        var off = 0
        while off < bytes.count {
            let n = transmit(bytes[off...])
            if n > 0 {
                off += n
            } else if n == 0 {
                var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                if poll(&p, 1, 10_000) == 0 { throw ClientError.timeout("the server is not reading our requests") }
            } else {
                throw ClientError.closed("connection lost while sending: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Whether the server has closed the connection (seen by the last read).
    public var isClosed: Bool { eof }

    /// Shuts down the sending side (the server answers what it has, then closes).
    public func finishSending() { shutdown(fd, Int32(SHUT_WR)) }

    /// The next complete line without its line ending, if one is already buffered.
    /// A line over `maxLine` comes back as an empty line, which no decoder accepts.
    public func bufferedLine() -> String? {
        switch lines.next() {
        case .line(let bytes)?: return String(decoding: bytes, as: UTF8.self)
        case .tooLong?:
            linesTooLong += 1
            return ""
        case nil: return nil
        }
    }

    /// At most this much is read by one `readAvailable`, so that a server that floods the
    /// client is paced by how fast the client shows what it read (the rest waits in the
    /// socket, and the server's own slow-consumer bound applies).
    public static let mostReadAtOnce = 1 << 20

    /// Reads what the socket has without blocking, up to `mostReadAtOnce`; false once the
    /// server has closed.
    @discardableResult
    public func readAvailable() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        for _ in 0..<(LineConnection.mostReadAtOnce / chunk.count) {
            let n = receive(&chunk)
            if n > 0 {
                chunk.withUnsafeBytes { lines.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                if n < chunk.count && tls == nil { return true }
            } else if n == -1 {
                return !eof
            } else {
                eof = true
                return false
            }
        }
        return true
    }

    /// The next line, waiting up to `timeout` seconds; nil on timeout. Throws once the server
    /// closed, or `.interrupted` when `interrupt` (a signalfd, say) becomes readable first.
    public func readLine(timeout: Double, interrupt: Int32? = nil) throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let l = bufferedLine() { return l }
            if eof { throw ClientError.closed("the server closed the connection") }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return nil }
            var p = [
                pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: interrupt ?? -1, events: Int16(POLLIN), revents: 0),
            ]
            let r = poll(&p, interrupt == nil ? 1 : 2, Int32(min(left, 3600) * 1000) + 1)
            if r > 0 && p[1].revents != 0 && interrupt != nil { throw ClientError.interrupted }
            if r > 0 { readAvailable() }
        }
    }
}
