import TabulaHTTP
import TabulaProtocol

/// Why the server closes a connection (or refuses one): one type, which each codec renders
/// through `EventLoop.goodbye`: `* BYE …` on a line, its JSON or RESP form, `event: bye` on
/// an event stream, and for an HTTP request in progress the status that fits the reason.
enum CloseReason: Sendable, Equatable {
    /// The server stops.
    case shutdown
    /// A connection limit (the server's, the address's, or the last slots kept for
    /// addresses with few connections): the words say which.
    case full(String)
    /// Nothing asked for `--idle-timeout` seconds.
    case idle(seconds: Int)
    /// A request not completed, or nothing read, in time; or incomplete input past the
    /// server's bound.
    case stalled(String)
    /// Unread output past the connection's bound or the server's.
    case slowConsumer(String)
    /// Its user was removed from the users file, or its secret changed.
    case credentialsChanged(String)
    /// The store's history was replaced: nothing the client holds can be resumed.
    case historyChanged(String)
    /// The history moved past a replay in progress.
    case replayStopped(String)
    /// It spoke HTTP to the line port or a RESP port (`ForeignProtocol`): a browser made to
    /// send a request there, whose body would run as requests.
    case notThisProtocol
    /// A request past the gate's bounds before a login (`RequestGate`): what follows it is
    /// not read.
    case overBound(String)
    /// A RESP request (`*N`) on a connection its first line made a line-protocol one:
    /// `redis-cli --pipe` on the shared port, whose inline commands ran as lines.
    case respAfterLines

    /// What `notThisProtocol` says.
    static let httpOnLinePort =
        "this port speaks Tabula's line protocol or RESP, not HTTP, and closes on an HTTP request or header "
        + "(so that no web page can send it requests); the web view and /api are on the port tabulad's --http gives"

    /// What the client is told.
    var message: String {
        switch self {
        case .shutdown: return "server shutting down"
        case .idle(let s): return "idle for \(s) s (--idle-timeout); reconnect when needed"
        case .full(let m), .stalled(let m), .slowConsumer(let m), .credentialsChanged(let m), .historyChanged(let m):
            return m
        case .replayStopped(let m): return "replay stopped: \(m)"
        case .notThisProtocol: return CloseReason.httpOnLinePort
        case .overBound(let m): return m
        case .respAfterLines:
            return
                "this connection speaks the line protocol, chosen by its first line, and a RESP request (*N) cannot follow; "
                + "send RESP from the first byte, or use tabulad's --resp-port (redis-cli --pipe: -p with the --resp-port)"
        }
    }

    /// The status an HTTP request in progress is answered with.
    var status: HTTPStatus {
        switch self {
        case .shutdown, .full, .slowConsumer, .historyChanged, .replayStopped: return .unavailable
        case .idle, .stalled: return .requestTimeout
        case .credentialsChanged: return .unauthorized
        case .notThisProtocol, .overBound, .respAfterLines: return .badRequest
        }
    }

    /// The refusal of a connection not yet adopted (nothing read from it): an HTTP
    /// response on the HTTP port, else a text goodbye line.
    func refusalBytes(http: Bool) -> [UInt8] {
        http
            ? HTTPResponse.refusal(status, message).encoded(close: true)
            : Codec.push(.bye(reason: message), format: .text)
    }
}

extension EventLoop {
    /// The goodbye in the connection's codec (nil: nothing to say, an HTTP connection with
    /// no request in progress), as bytes to send as they are (`OutputQueue.appendRaw`): a
    /// chunked event stream's is its last chunks.
    func goodbye(_ c: Connection, _ reason: CloseReason) -> [UInt8]? {
        let bye = Codec.push(.bye(reason: reason.message), format: c.session.format)
        if c.output.chunkedBody { return c.output.framed(bye) + OutputQueue.lastChunk }
        return c.exchange.map { $0.goodbye(reason, pushed: bye, of: c) } ?? bye
    }
}
