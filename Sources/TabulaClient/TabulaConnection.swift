import Foundation
import TabulaProtocol

/// A reply as the client sees it: the lines as the server sent them (for showing) and the
/// same reply decoded (for deciding).
public struct ServerReply: Sendable, Equatable {
    /// The reply, decoded.
    public var reply: DecodedReply
    /// The whole reply as the server sent it, a line per element; the last is the final line.
    public var lines: [String]
    /// The final `OK …` or `ERR …` line (the whole line in JSON).
    public var final: String { lines.last ?? "" }
    /// The text rows (markers removed, escapes undone); empty in JSON.
    public var data: [String] { reply.rows.map(\.text) }
    /// Whether the request succeeded.
    public var isOK: Bool { reply.isOK }
}

/// A Tabula protocol connection: requests get their replies, pushes are kept apart in order.
public final class TabulaConnection {
    /// The underlying line connection.
    public let line: LineConnection
    /// The greeting line, as sent.
    public private(set) var hello = ""
    /// The greeting's history id: a different one on reconnect means the server started a
    /// new history, so nothing can be resumed.
    public private(set) var historyID = ""
    /// The revision the greeting named.
    public private(set) var helloRevision: UInt64 = 0
    private var decoder = WireDecoder()
    /// Pushes received and not yet taken, oldest first; at most `mostQueuedPushes`.
    public private(set) var pushes: [String] = []
    /// Pushes are queued while a reply is awaited; past this many the oldest are dropped
    /// (and counted in `droppedPushes`), so a flood cannot grow the client without bound.
    public static let mostQueuedPushes = 10_000
    /// Pushes dropped from a full queue since `takeDropped` last asked.
    public private(set) var droppedPushes = 0
    /// The revision up to which this connection's watches have seen every change: the
    /// highest of the events received and the "at rev N" of WATCH replies, but within an
    /// unfinished replay its last event (`ResumePoint`). Resume from here.
    public var lastRevision: UInt64 { resumePoint.revision }
    private var resumePoint = ResumePoint()
    /// The FROM of the WATCH that `request` awaits the reply of, if it is one.
    private var awaitedFrom: UInt64?

    /// Connects to `host:port` and reads the greeting.
    public convenience init(host: String, port: Int, timeout: Double = 5) throws {
        try self.init(.tcp(host: host, port: port), timeout: timeout)
    }

    /// Connects to `host:port` from the local IPv4 address `source` and reads the greeting.
    public convenience init(host: String, port: Int, timeout: Double = 5, source: String) throws {
        try self.init(
            LineConnection(host: host, port: port, timeout: timeout, source: source), "\(host):\(port)",
            timeout: timeout)
    }

    /// Connects and reads the greeting.
    public convenience init(_ endpoint: Endpoint, timeout: Double = 5) throws {
        try self.init(LineConnection(endpoint, timeout: timeout), "\(endpoint)", timeout: timeout)
    }

    /// Reads the greeting on `line`, just connected to `endpoint`.
    init(_ line: LineConnection, _ endpoint: String, timeout: Double) throws {
        self.line = line
        // A blank line (ignored, never answered) tells the server at once that this is a
        // line client, so it greets now rather than after waiting to see if RESP comes. Its
        // space makes an HTTP server answer 400 at once, which is then said (not 5 s of silence).
        try line.sendRaw([32, 10])
        guard let h = try line.readLine(timeout: timeout) else {
            throw ClientError.timeout("no greeting from \(endpoint) within \(timeout)s")
        }
        switch WireDecoder.textPush(h) {
        case .hello(_, _, let rev, let id)?:
            hello = h
            historyID = id
            helloRevision = rev
        case .bye(let reason)?:
            throw ClientError.connectFailed("the server refused the connection: \(reason)")
        default:
            if h.hasPrefix("HTTP/") {
                throw ClientError.connectFailed(
                    "\(endpoint) is an HTTP port (tabulad's --http?), not the line protocol's; connect to tabulad's --port (8228 by default)"
                )
            }
            throw ClientError.connectFailed("\(endpoint) does not speak the Tabula protocol (it said: \(h.prefix(60)))")
        }
    }

    /// Sends one request line and reads its whole reply; pushes that arrive meanwhile are queued.
    /// With `interrupt`, a wait that fd cuts short throws `.interrupted`, and the reply, when it
    /// comes, is dropped (the next reply read is the next request's).
    public func request(_ text: String, timeout: Double = 10, interrupt: Int32? = nil) throws -> ServerReply {
        if case .success(let r)? = RequestParser.parse(Array(text.utf8)), case .watch(_, let from, _, _) = r.command {
            awaitedFrom = from
        }
        defer { awaitedFrom = nil }
        try line.send(text)
        do {
            return try readReply(timeout: timeout, interrupt: interrupt)
        } catch ClientError.interrupted {
            abandoned += 1
            throw ClientError.interrupted
        }
    }

    /// Replies still to come for requests whose wait was cancelled: dropped when they arrive.
    private var abandoned = 0

    /// Reads one reply (for requests sent earlier, e.g. pipelined).
    public func readReply(timeout: Double = 10, interrupt: Int32? = nil) throws -> ServerReply {
        var lines: [String] = []
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            guard let raw = try line.readLine(timeout: max(0, deadline.timeIntervalSinceNow), interrupt: interrupt)
            else {
                throw ClientError.timeout("no reply within \(timeout)s")
            }
            let l = TerminalText.safe(raw)
            switch decoder.feed(l) {
            case nil:
                lines.append(l)
            case .push(let p)?:
                note(p)
                queue(l)
            case .reply(let r)?:
                if abandoned > 0 {  // the reply to a cancelled request
                    abandoned -= 1
                    lines.removeAll()
                    continue
                }
                lines.append(l)
                if let ack = WatchAck(message: r.message), r.isOK { resumePoint.watched(ack, from: awaitedFrom) }
                return ServerReply(reply: r, lines: lines)
            case .unreadable(let what)?:
                throw ClientError.closed("the server sent a line that is not the Tabula protocol: \(what.prefix(80))")
            }
        }
    }

    /// Takes the first queued or arriving push that satisfies `match`, waiting up to `timeout` seconds.
    /// With `interrupt`, a wait that fd cuts short throws `.interrupted`.
    public func waitPush(timeout: Double, interrupt: Int32? = nil, where match: (String) -> Bool) throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let i = pushes.firstIndex(where: match) {
                let p = pushes.remove(at: i)
                return p
            }
            guard let raw = try line.readLine(timeout: max(0, deadline.timeIntervalSinceNow), interrupt: interrupt)
            else { return nil }
            let l = TerminalText.safe(raw)
            if let p = TabulaConnection.push(l) {
                note(p)
                queue(l)
            }
        }
    }

    private func queue(_ push: String) {
        if pushes.count >= TabulaConnection.mostQueuedPushes {
            pushes.removeFirst(pushes.count / 2)  // amortised: half at a time
            droppedPushes += TabulaConnection.mostQueuedPushes - pushes.count
        }
        pushes.append(push)
    }

    /// How many pushes were dropped from a full queue since the last call (then zero).
    public func takeDropped() -> Int {
        defer { droppedPushes = 0 }
        return droppedPushes
    }

    /// Takes all queued pushes.
    public func takePushes() -> [String] {
        defer { pushes.removeAll() }
        return pushes
    }

    /// Reads whatever has arrived without blocking and queues any pushes; returns new pushes.
    public func pollPushes() -> [String] {
        line.readAvailable()
        var out: [String] = []
        while let raw = line.bufferedLine() {
            let l = TerminalText.safe(raw)
            if let p = TabulaConnection.push(l) {
                note(p)
                out.append(l)
            }
        }
        return out
    }

    /// The push a line carries, text or JSON; nil for any other line.
    public static func push(_ l: String) -> Push? {
        if l.hasPrefix("*") { return WireDecoder.textPush(l) }
        if l.hasPrefix("{\"push\""), let v = JSONParser.parse(l) { return WireDecoder.jsonPush(v) }
        return nil
    }

    /// The revision an event or greeting line carries, if any.
    public static func revision(of l: String) -> UInt64? {
        switch push(l) {
        case .event(let e)?: return e.rev
        case .hello(_, _, let rev, _)?: return rev
        default: return nil
        }
    }

    private func note(_ p: Push) {
        if case .event(let e) = p { resumePoint.event(e.rev) }
        if case .synced(let rev) = p { resumePoint.synced(rev) }
        if case .snapshot = p { resumePoint.overtaken() }
    }

    /// Sets the resume point (after a reconnect the new connection continues the old one's).
    public func resume(from revision: UInt64) { resumePoint.resume(from: revision) }
}
