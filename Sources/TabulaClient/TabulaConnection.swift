import Foundation
import TabulaProtocol

/// A reply as the client sees it: data lines (marker removed), and the final line.
public struct ServerReply: Sendable, Equatable {
    /// Data lines without their `- ` marker (or whole JSON lines in JSON mode).
    public var data: [String]
    /// The final `OK …` or `ERR …` line.
    public var final: String
    /// Whether the final line is `OK`.
    public var isOK: Bool { final.hasPrefix("OK") || final.hasPrefix("{\"ok\":true") }
    /// The whole reply as the server sent it, a line per element.
    public var lines: [String]
}

/// A Tabula protocol connection: requests get their replies, pushes are kept apart in order.
public final class TabulaConnection {
    /// The underlying line connection.
    public let line: LineConnection
    /// The greeting line.
    public private(set) var hello = ""
    /// Pushes received and not yet taken, oldest first.
    public private(set) var pushes: [String] = []
    /// The revision up to which this connection's watches have seen every change: the
    /// highest of the events received and the "at rev N" of WATCH replies. Resume from here.
    public private(set) var lastRevision: UInt64 = 0

    /// Connects and reads the greeting.
    public init(host: String, port: Int, timeout: Double = 5) throws {
        line = try LineConnection(host: host, port: port, timeout: timeout)
        guard let h = try line.readLine(timeout: timeout) else { throw ClientError.timeout("no greeting from \(host):\(port) within \(timeout)s") }
        guard h.hasPrefix("* HELLO") else {
            if h.hasPrefix("* BYE") { throw ClientError.connectFailed("the server refused the connection: \(h.dropFirst(6))") }
            throw ClientError.connectFailed("\(host):\(port) does not speak the Tabula protocol (it said: \(h.prefix(60)))")
        }
        hello = h
    }

    /// Sends one request line and reads its whole reply; pushes that arrive meanwhile are queued.
    public func request(_ text: String, timeout: Double = 10) throws -> ServerReply {
        try line.send(text)
        return try readReply(timeout: timeout)
    }

    /// Reads one reply (for requests sent earlier, e.g. pipelined).
    public func readReply(timeout: Double = 10) throws -> ServerReply {
        var data: [String] = []
        var lines: [String] = []
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            guard let l = try line.readLine(timeout: max(0, deadline.timeIntervalSinceNow)) else {
                throw ClientError.timeout("no reply within \(timeout)s")
            }
            if TabulaConnection.isPush(l) {
                note(l)
                pushes.append(l)
                continue
            }
            lines.append(l)
            if l.hasPrefix("- ") {
                data.append(String(l.dropFirst(2)))
            } else if l.hasPrefix("{") && !l.hasPrefix("{\"ok\"") {
                data.append(l)
            } else {
                let reply = ServerReply(data: data, final: l, lines: lines)
                if reply.isOK, let r = SessionTracker.watchRevision(reply), r > lastRevision { lastRevision = r }
                return reply
            }
        }
    }

    /// Takes the first queued or arriving push that satisfies `match`, waiting up to `timeout` seconds.
    public func waitPush(timeout: Double, where match: (String) -> Bool) throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let i = pushes.firstIndex(where: match) {
                let p = pushes.remove(at: i)
                return p
            }
            guard let l = try line.readLine(timeout: max(0, deadline.timeIntervalSinceNow)) else { return nil }
            if TabulaConnection.isPush(l) {
                note(l)
                pushes.append(l)
            }
        }
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
        while let l = line.bufferedLine() {
            if TabulaConnection.isPush(l) {
                note(l)
                out.append(l)
            }
        }
        return out
    }

    /// Whether a line is a push (text `*…` or JSON `{"push":…}`).
    public static func isPush(_ l: String) -> Bool { l.hasPrefix("*") || l.hasPrefix("{\"push\"") }

    /// The revision an event or greeting line carries, if any.
    public static func revision(of l: String) -> UInt64? {
        if l.hasPrefix("* EVENT ") {
            return l.dropFirst(8).split(separator: " ").first.flatMap { UInt64($0) }
        }
        if l.hasPrefix("* HELLO"), let r = l.split(separator: " ").first(where: { $0.hasPrefix("rev=") }) {
            return UInt64(r.dropFirst(4))
        }
        if l.hasPrefix("{\"push\""), let v = JSONParser.parse(l), let r = v["rev"]?.intValue { return UInt64(r) }
        return nil
    }

    private func note(_ l: String) {
        guard !l.hasPrefix("* HELLO") else { return }
        if let r = TabulaConnection.revision(of: l), r > lastRevision { lastRevision = r }
    }

    /// Sets the resume point (after a reconnect the new connection continues the old one's).
    public func resume(from revision: UInt64) { lastRevision = max(lastRevision, revision) }
}
