import Foundation
import TabulaCommandLine
import TabulaProtocol

/// Runs batch lines against a connection: requests, comments and the `\` meta-commands
/// `\echo`, `\expect`, `\expect-error`, `\wait`, `\i` and `\q` (`ScriptLine` says how a
/// line is read).
public final class ScriptRunner {
    /// What to do at the first error.
    public enum OnError: String, Sendable { case stop, `continue` }

    /// A script failure (not a connection failure).
    struct ScriptFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    let connection: TabulaConnection
    let onError: OnError
    let out: (String) -> Void
    let err: (String) -> Void
    /// Print JSON (the connection speaks it): errors too on stdout, `\echo` as an object.
    let json: Bool
    /// Seconds a request, or a `\wait`, may take at most (nil: as long as it asks).
    let timeout: Double?
    /// `--csv`/`--tsv`: data rows as a table (the connection speaks JSON); nothing else on stdout.
    let table: TableOutput?
    /// `--quiet`: only data rows on stdout.
    let quiet: Bool
    /// At the prompt: a signal fd whose signal (Ctrl-C) cuts a `\wait` short.
    public var interrupt: Int32?
    /// A request's failure, held for one line: a `\expect-error` there takes it.
    private var pendingFailure: (line: Int, code: ErrorCode?, message: String)?
    /// Session state learnt so far.
    public private(set) var session = SessionTracker()
    /// Errors seen (ERR replies and failed meta-commands).
    public private(set) var failures = 0
    /// The last reply as this script's format prints it (text lines, JSON objects, or CSV/TSV
    /// header and records, each followed by the final line): what `\expect` matches.
    private var lastShown: [String]?
    private var unclaimedPushes: [String] = []
    private var depth = 0
    private var quitRequested = false

    /// Makes a runner printing with `out` (results) and `err` (errors).
    public init(
        connection: TabulaConnection, onError: OnError, json: Bool = false, timeout: Double? = nil,
        table: TableOutput? = nil, quiet: Bool = false,
        out: @escaping (String) -> Void, err: @escaping (String) -> Void
    ) {
        self.connection = connection
        self.onError = onError
        self.json = json
        self.timeout = timeout
        self.table = table
        self.quiet = quiet
        self.out = out
        self.err = err
    }

    /// Runs a whole script; returns the exit status.
    public func run(_ text: String, source: String) -> ExitStatus {
        do {
            let stopped = try runLines(
                text, source: source, directory: URL(fileURLWithPath: source).deletingLastPathComponent())
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
            if quitRequested { break }
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : String(raw)
            let read = ScriptLine.read(line)
            if read == .nothing { continue }
            // A held failure counts now, unless this line expects it.
            if case .meta(name: "\\expect-error", arguments: let code) = read {
                do { try expectError(code) } catch let f as ScriptFailure {
                    if fail("\(source):\(i + 1): \(f.message)") { return true }
                }
                continue
            }
            if let held = settle(source: source) { if held { return true } }
            do {
                try run(read, line: i + 1, directory: directory)
            } catch let f as ScriptFailure {
                if fail("\(source):\(i + 1): \(f.message)") { return true }
            } catch let e as ClientError {
                throw ClientError.closed("\(source):\(i + 1): \(e)")
            }
        }
        return settle(source: source) ?? false
    }

    /// Counts a failure and says where; true when it stops the run.
    private func fail(_ message: String) -> Bool {
        failures += 1
        err(message)
        return onError == .stop
    }

    /// Counts the held failure, if any; nil when there was none, else whether it stops the run.
    private func settle(source: String) -> Bool? {
        guard let held = pendingFailure else { return nil }
        pendingFailure = nil
        return fail("\(source):\(held.line): \(held.message)")
    }

    /// `\expect-error [CODE]`: the request before failed (with CODE): that is a success.
    private func expectError(_ code: String) throws {
        guard let held = pendingFailure else {
            throw ScriptFailure(
                message: "\\expect-error\(code.isEmpty ? "" : " " + code): the request before it succeeded")
        }
        pendingFailure = nil
        let wanted = code.uppercased()
        guard wanted.isEmpty || held.code?.rawValue == wanted else {
            throw ScriptFailure(
                message: "\\expect-error \(wanted): the request before it failed otherwise: \(held.message)")
        }
    }

    /// Runs one line (a request, a comment or a meta-command); a request's failure is held
    /// for the next line (see `\expect-error`).
    func run(_ read: ScriptLine, line number: Int, directory: URL) throws {
        switch read {
        case .nothing: return
        case .meta(let name, let arguments): try meta(name, arguments, directory: directory)
        case .request(let text):
            let reply = try connection.request(text, timeout: requestTimeout(text))
            showPushes()
            session.observe(request: text, reply: reply)
            let shown = shownLines(reply)
            lastShown = shown
            if table != nil || quiet {
                for l in shown.dropLast() { out(l) }
            } else {
                for l in reply.lines.dropLast() { out(l) }
                if reply.isOK || json { out(reply.final) }  // in JSON, an error is an object on stdout too
            }
            if !reply.isOK { pendingFailure = (number, reply.reply.error?.code, reply.final) }
        }
    }

    /// The lines of `reply` as this script prints them, data rows then the final line: CSV or
    /// TSV records under a header (`--csv`/`--tsv`), the rows alone (`--quiet`), else the
    /// server's lines (JSON objects with `--json`).
    private func shownLines(_ reply: ServerReply) -> [String] {
        if let table { return table.lines(reply.reply.rows.map(\.json)) + [reply.final] }
        if quiet {
            return reply.reply.rows.map { TerminalText.safe(json ? $0.json.jsonText : $0.text) } + [reply.final]
        }
        return reply.lines
    }

    /// The name of the form this script prints replies in.
    private var formatName: String {
        if let table { return "--\(table.rawValue)" }
        return json ? "--json" : "text"
    }

    /// Runs one line at once, failing on a failed request (the prompt's `\` lines use it).
    public func runLine(_ line: String, directory: URL = URL(fileURLWithPath: ".")) throws {
        try run(ScriptLine.read(line), line: 0, directory: directory)
        if let held = pendingFailure {
            pendingFailure = nil
            throw ScriptFailure(message: held.message)
        }
    }

    /// How long `text` may take: what `--timeout` allows, but a SYNC is given the wait it asks.
    func requestTimeout(_ text: String) -> Double { ScriptRunner.requestTimeout(text, limit: timeout) }

    /// How long `text` may take with a client limit of `limit` seconds (nil: none).
    public static func requestTimeout(_ text: String, limit timeout: Double?) -> Double {
        let words = text.split(separator: " ")
        var asked: Double = 0
        if let v = words.first, Verb.named(v) == .sync,
            let i = words.firstIndex(where: { $0.uppercased() == "TIMEOUT" }), i + 1 < words.count,
            let ms = Double(words[i + 1])
        {
            asked = ms / 1000 + 5
        } else if let v = words.first, Verb.named(v) == .sync {
            asked = 10
        }
        guard let timeout else { return 365 * 86_400 }  // no limit of the client's own
        return max(timeout, asked)
    }

    private func showPushes() {
        for p in connection.takePushes() {
            if table == nil && !quiet { out(p) }
            unclaimedPushes.append(p)
        }
        // `\wait` looks among the newest: as many as the connection itself queues.
        if unclaimedPushes.count > TabulaConnection.mostQueuedPushes {
            unclaimedPushes.removeFirst(unclaimedPushes.count - TabulaConnection.mostQueuedPushes)
        }
        let dropped = connection.takeDropped()
        if dropped > 0 {
            err(
                "tabula: \(dropped) pushes dropped: more than \(TabulaConnection.mostQueuedPushes) arrived during one request"
            )
        }
    }

    private func meta(_ name: String, _ rest: String, directory: URL) throws {
        switch name {
        case "\\echo":
            out(json ? JSONValue.object([("echo", .string(rest))]).jsonText : rest)
        case "\\q":
            quitRequested = true
        case "\\expect":
            let regex = try pattern(rest, for: "\\expect")
            guard let shown = lastShown else { throw ScriptFailure(message: "\\expect with no reply before it") }
            guard shown.contains(where: { matches(regex, $0) }) else {
                throw ScriptFailure(
                    message:
                        "\\expect /\(rest)/ did not match the last reply as \(formatName) prints it (\(shown.prefix(3).joined(separator: " | "))\(shown.count > 3 ? " | …" : "")); a check matches what the script prints, so a script run with --json, --csv or --tsv matches that form"
                )
            }
        case "\\wait":
            try wait(rest)
        case "\\i", "\\include":
            guard !rest.isEmpty else { throw ScriptFailure(message: "usage: \\i FILE") }
            let url = rest.hasPrefix("/") ? URL(fileURLWithPath: rest) : directory.appendingPathComponent(rest)
            guard depth < 16 else {
                throw ScriptFailure(message: "\\i nested more than 16 deep; does \(rest) include itself?")
            }
            let text: String
            switch ReadableFile.text(url.path) {
            case .success(let t): text = t
            case .failure(let problem): throw ScriptFailure(message: "\\i: \(problem)")
            }
            depth += 1
            defer { depth -= 1 }
            if try runLines(text, source: url.path, directory: url.deletingLastPathComponent()) {
                throw ScriptFailure(message: "included script \(rest) stopped")
            }
        default:
            throw ScriptFailure(
                message: "unknown meta-command \(name); known: \\echo \\expect \\expect-error \\wait \\i \\q")
        }
    }

    /// `\\wait PATTERN [SECONDS]`: until a push matches (one already shown counts).
    private func wait(_ rest: String) throws {
        guard case .success(let words) = Tokenizer.tokenize(Array(rest.utf8)), let p = words.first, words.count <= 2
        else {
            throw ScriptFailure(message: "usage: \\wait PATTERN [SECONDS]")
        }
        let seconds = words.count == 2 ? Double(words[1]) : 5
        guard let asked = seconds, asked >= 0 else {
            throw ScriptFailure(message: "\\wait: '\(words[1])' is not a number of seconds")
        }
        let timeout = min(asked, self.timeout ?? asked)
        let regex = try pattern(p, for: "\\wait")
        if let i = unclaimedPushes.firstIndex(where: { matches(regex, $0) }) {
            unclaimedPushes.removeFirst(i + 1)
            return
        }
        showPushes()
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            guard
                let push = try connection.waitPush(
                    timeout: max(0, deadline.timeIntervalSinceNow), interrupt: interrupt, where: { _ in true })
            else {
                throw ScriptFailure(
                    message:
                        "\\wait: no push matching /\(p)/ within \(timeout < asked ? "the --timeout of \(Int(timeout))" : words.count == 2 ? words[1] : "5") seconds"
                )
            }
            out(push)
            if matches(regex, push) {
                unclaimedPushes.removeAll()
                return
            }
            unclaimedPushes.append(push)
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

    /// Whether `r` matches `s`; a JSON push is matched as its text form would be (`\wait`
    /// means the event, not its encoding), the JSON line too.
    private func matches(_ r: NSRegularExpression, _ s: String) -> Bool {
        if r.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil { return true }
        guard s.hasPrefix("{"), let v = JSONParser.parse(s), case .event(let e)? = WireDecoder.jsonPush(v) else {
            return false
        }
        let text = "* EVENT \(e.rev) \(e.kind) \(e.path) " + ScriptRunner.words(of: e.value).joined(separator: "  ")
        return r.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// The strings and numbers in a JSON value, in order (what a text summary shows).
    static func words(of v: JSONValue) -> [String] {
        switch v.resolved {
        case .string(let s): return [s]
        case .int(let n): return [String(n)]
        case .double(let d): return [String(d)]
        case .array(let a): return a.flatMap(words)
        case .object(let pairs): return pairs.flatMap { words(of: $0.1) }
        default: return []
        }
    }
}
