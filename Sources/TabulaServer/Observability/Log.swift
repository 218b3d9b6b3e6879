import Foundation
import Synchronization
import TabulaProtocol

/// Log verbosity, from quietest.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case error, warn, info, debug

    /// Parses `error|warn|info|debug`.
    public init?(name: String) {
        guard let l = LogLevel.allCases.first(where: { "\($0)" == name.lowercased() }) else { return nil }
        self = l
    }

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}

/// How log lines are written (`--log-format`).
public enum LogFormat: String, Sendable, CaseIterable {
    /// `2026-12-01T10:50:44Z INFO message`, for people.
    case text
    /// `time=… level=info conn=257 msg="…"`, for logfmt tools.
    case logfmt
    /// `{"time":…,"level":"info","conn":257,"msg":"…"}`, one object per line.
    case json
}

/// One line per event that matters, to stderr, with a UTC timestamp. The line is made on the
/// calling thread and written by the log's own thread (`tabulad-log`), so an I/O loop never
/// waits on a slow stderr; past `mostQueued` lines waiting, lines are dropped and counted.
public final class Log: Sendable {
    let level: LogLevel
    let format: LogFormat
    private let queue = Locked<(lines: [String], dropped: Int)>(([], 0))
    private let wake = DispatchSemaphore(value: 0)
    private let running = Atomic<Bool>(true)
    static let mostQueued = 10_000

    /// Logs at `level` and quieter, in `format`.
    public init(level: LogLevel, format: LogFormat = .text) {
        self.level = level
        self.format = format
        let t = Thread { [self] in self.writeForever() }
        t.name = "tabulad-log"
        t.start()
    }

    /// Writes `message` if `l` is enabled; `conn` is the connection it is about, if any.
    public func log(_ l: LogLevel, _ message: @autoclosure () -> String, conn: UInt64? = nil) {
        guard l <= level else { return }
        let line = Log.line(l, message(), conn: conn, format: format, time: Date().formatted(.iso8601))
        let queued = queue.withLock { q -> Bool in
            guard q.lines.count < Log.mostQueued else {
                q.dropped += 1
                return false
            }
            q.lines.append(line)
            return true
        }
        if !running.load(ordering: .acquiring) {
            FileHandle.standardError.write(Data(line.utf8))
        } else if queued {
            wake.signal()
        }
    }

    /// One line in `format`.
    static func line(_ l: LogLevel, _ message: String, conn: UInt64?, format: LogFormat, time: String) -> String {
        let name = String(describing: l)
        switch format {
        // A message may quote what a client sent (an AUTH name): one line, controls made
        // visible, so no client can forge a line of the log.
        case .text:
            return "\(time) \(name.uppercased()) \(conn.map { "[\($0)] " } ?? "")\(WireEncoder.oneLine(message))\n"
        case .logfmt: return "time=\(time) level=\(name)\(conn.map { " conn=\($0)" } ?? "") msg=\(quoted(message))\n"
        case .json:
            return
                "{\"time\":\"\(time)\",\"level\":\"\(name)\"\(conn.map { ",\"conn\":\($0)" } ?? ""),\"msg\":\(quoted(message))}\n"
        }
    }

    /// `s` as a JSON string (logfmt readers take its escapes too).
    static func quoted(_ s: String) -> String {
        var out: [UInt8] = []
        JSONValue.string(s).write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Writes until nothing is queued; returns when the process ends. Waits for lines written
    /// before a `flush()`.
    private func writeForever() {
        while running.load(ordering: .acquiring) {
            wake.wait()
            let (lines, dropped) = queue.withLock { q -> ([String], Int) in
                defer { q = ([], 0) }
                return q
            }
            var text = lines.joined()
            if dropped > 0 {
                text += Log.line(
                    .warn, "\(dropped) log lines dropped: stderr was not keeping up", conn: nil, format: format,
                    time: Date().formatted(.iso8601))
            }
            if !text.isEmpty { FileHandle.standardError.write(Data(text.utf8)) }
        }
    }

    /// Writes what is queued and ends the log's thread (the server stopped); later lines
    /// are written by the caller.
    public func stop() {
        running.store(false, ordering: .releasing)
        wake.signal()
        let rest = queue.withLock { q -> [String] in
            defer { q = ([], 0) }
            return q.lines
        }
        if !rest.isEmpty { FileHandle.standardError.write(Data(rest.joined().utf8)) }
    }
}
