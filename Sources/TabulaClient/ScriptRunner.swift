import Foundation
import TabulaCommandLine
import TabulaProtocol

/// Runs batch lines against a connection: requests, `#` comments and the `\` meta-commands
/// `\echo`, `\expect`, `\wait`, `\i` and `\q`.
public final class ScriptRunner {
    /// What to do at the first error.
    public enum OnError: String, Sendable { case stop, `continue` }

    /// A script failure (not a connection failure).
    struct ScriptFailure: Error { let message: String }

    let connection: TabulaConnection
    let onError: OnError
    let out: (String) -> Void
    let err: (String) -> Void
    /// Session state learnt so far.
    public private(set) var session = SessionTracker()
    /// Errors seen (ERR replies and failed meta-commands).
    public private(set) var failures = 0
    private var lastReply: ServerReply?
    private var unclaimedPushes: [String] = []
    private var depth = 0
    private var quitRequested = false

    /// Makes a runner printing with `out` (results) and `err` (errors).
    public init(connection: TabulaConnection, onError: OnError, out: @escaping (String) -> Void, err: @escaping (String) -> Void) {
        self.connection = connection
        self.onError = onError
        self.out = out
        self.err = err
    }

    /// Runs a whole script; returns the exit status.
    public func run(_ text: String, source: String) -> ExitStatus {
        do {
            let stopped = try runLines(text, source: source, directory: URL(fileURLWithPath: source).deletingLastPathComponent())
            if stopped { return .script }
            return failures > 0 ? .script : .ok
        } catch let e as ClientError {
            err("tabula: \(e)")
            return .unavailable
        } catch {
            err("tabula: \(error)")
            return .usage
        }
    }

    /// Runs lines; returns true if an error stopped the run.
    func runLines(_ text: String, source: String, directory: URL) throws -> Bool {
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if quitRequested { return false }
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : String(raw)
            do {
                try runLine(line, directory: directory)
            } catch let f as ScriptFailure {
                failures += 1
                err("\(source):\(i + 1): \(f.message)")
                if onError == .stop { return true }
            } catch let e as ClientError {
                throw ClientError.closed("\(source):\(i + 1): \(e)")
            }
        }
        return false
    }

    /// Runs one line (a request, a comment or a meta-command).
    public func runLine(_ line: String, directory: URL = URL(fileURLWithPath: ".")) throws {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        if trimmed.isEmpty || trimmed == "#" || trimmed.hasPrefix("# ") || trimmed.hasPrefix("#\t") || trimmed.hasPrefix("--") { return }
        if trimmed.hasPrefix("\\") {
            try meta(String(trimmed), directory: directory)
            return
        }
        let reply = try connection.request(String(trimmed))
        showPushes()
        lastReply = reply
        session.observe(request: String(trimmed), reply: reply)
        for l in reply.lines.dropLast() { out(l) }
        if reply.isOK {
            out(reply.final)
        } else {
            throw ScriptFailure(message: reply.final)
        }
    }

    private func showPushes() {
        for p in connection.takePushes() {
            out(p)
            unclaimedPushes.append(p)
        }
    }

    private func meta(_ line: String, directory: URL) throws {
        let name = line.prefix { $0 != " " && $0 != "\t" }
        let rest = String(line.dropFirst(name.count).drop { $0 == " " || $0 == "\t" })
        switch name {
        case "\\echo":
            out(rest)
        case "\\q":
            quitRequested = true
        case "\\expect":
            let regex = try pattern(rest, for: "\\expect")
            guard let last = lastReply else { throw ScriptFailure(message: "\\expect with no reply before it") }
            guard last.lines.contains(where: { matches(regex, $0) }) else {
                throw ScriptFailure(message: "\\expect /\(rest)/ did not match the last reply (\(last.final))")
            }
        case "\\wait":
            guard case .success(let words) = Tokenizer.tokenize(Array(rest.utf8)), let p = words.first, words.count <= 2 else {
                throw ScriptFailure(message: "usage: \\wait PATTERN [SECONDS]")
            }
            let seconds = words.count == 2 ? Double(words[1]) : 5
            guard let timeout = seconds, timeout >= 0 else { throw ScriptFailure(message: "\\wait: '\(words[1])' is not a number of seconds") }
            let regex = try pattern(p, for: "\\wait")
            if let i = unclaimedPushes.firstIndex(where: { matches(regex, $0) }) {
                unclaimedPushes.removeFirst(i + 1)
                return
            }
            showPushes()
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                guard let push = try connection.waitPush(timeout: max(0, deadline.timeIntervalSinceNow), where: { _ in true }) else {
                    throw ScriptFailure(message: "\\wait: no push matching /\(p)/ within \(words.count == 2 ? words[1] : "5") seconds")
                }
                out(push)
                if matches(regex, push) {
                    unclaimedPushes.removeAll()
                    return
                }
                unclaimedPushes.append(push)
            }
        case "\\i", "\\include":
            guard !rest.isEmpty else { throw ScriptFailure(message: "usage: \\i FILE") }
            let url = rest.hasPrefix("/") ? URL(fileURLWithPath: rest) : directory.appendingPathComponent(rest)
            guard depth < 16 else { throw ScriptFailure(message: "\\i nested more than 16 deep; does \(rest) include itself?") }
            guard let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) else {
                throw ScriptFailure(message: "\\i: cannot read \(url.path)")
            }
            depth += 1
            defer { depth -= 1 }
            if try runLines(text, source: url.path, directory: url.deletingLastPathComponent()) {
                throw ScriptFailure(message: "included script \(rest) stopped")
            }
        default:
            throw ScriptFailure(message: "unknown meta-command \(name); known: \\echo \\expect \\wait \\i \\q")
        }
    }

    private func pattern(_ p: String, for what: String) throws -> NSRegularExpression {
        guard !p.isEmpty else { throw ScriptFailure(message: "usage: \(what) PATTERN") }
        do {
            return try NSRegularExpression(pattern: p)
        } catch {
            throw ScriptFailure(message: "\(what): '\(p)' is not a valid regular expression")
        }
    }

    private func matches(_ r: NSRegularExpression, _ s: String) -> Bool {
        r.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
    }
}
