@preconcurrency import CReadline
import CLinuxShims
import Foundation
import Glibc
import TabulaClient
import TabulaCommandLine
import TabulaProtocol

/// The one interactive session; readline's C callbacks reach it through this.
nonisolated(unsafe) var current: Interactive?
nonisolated(unsafe) var completionCandidates: [String] = []
nonisolated(unsafe) var completionIndex = 0
/// Bytes typed after the key that left the live view, which readline reads before the terminal's.
nonisolated(unsafe) var typedAhead: [UInt8] = []

/// The interactive client: readline's callback interface, with the terminal, the socket and
/// signals watched together by one `poll`, so pushes show up while a line is half typed.
final class Interactive {
    let options: Options
    let renderer: Renderer
    var connection: TabulaConnection?
    var session = SessionTracker()
    var resumeRevision: UInt64 = 0
    /// The history id of the server last connected to.
    var historyID = ""
    var done = false
    var nextAttempt = Date()
    var reconnector = Reconnector()
    /// Which of `options.servers` the session is on (or was last on).
    var serverIndex = 0
    var endpoint: Endpoint { options.servers.endpoints[serverIndex] }
    let historyPath: String
    var signalFD: Int32 = -1
    /// `\timing`: each request's round trip is shown after its reply.
    var timing = false
    /// The last reply, for `\expect` and `\expect-error` at the prompt.
    var lastReply: ServerReply?

    init(options: Options, renderer: Renderer) {
        self.options = options
        self.renderer = renderer
        historyPath = ProcessInfo.processInfo.environment["TABULA_HISTFILE"] ?? (NSHomeDirectory() + "/.tabula_history")
    }

    var prompt: String {
        let server = endpoint == .tcp(host: "127.0.0.1", port: 8228) ? "" : "\(endpoint) "
        let state = connection == nil ? "(disconnected) " : ""
        let cwd = TerminalText.safe(session.cwd)
        let full = "tabula \(server)\(state)\(cwd)> "
        // On a narrow terminal the prompt leaves room to type: the path alone.
        var rows: Int32 = 0, cols: Int32 = 0
        rl_get_screen_size(&rows, &cols)
        return cols > 0 && full.count > Int(cols) / 2 ? "\(state)\(cwd)> " : full
    }

    func run() -> ExitStatus {
        var errors: [String] = []
        for i in options.servers.endpoints.indices where connection == nil {
            do {
                let c = try TabulaConnection(options.servers.endpoints[i])
                if let credentials = options.credentials { try c.authenticate(credentials) }
                connection = c
                historyID = c.historyID
                serverIndex = i
            } catch {
                errors.append("\(error)")
                if case ClientError.refused = error { break }
            }
        }
        if connection == nil {
            FileHandle.standardError.write(Data("tabula: \(errors.joined(separator: "; "))\n".utf8))
            return .unavailable
        }
        if options.json { _ = try? connection?.request("FORMAT json") }
        // The server closes a connection that sends no request within --stall-timeout of
        // connecting; a person at the prompt may well read first.
        _ = try? connection?.request("PING")
        print(
            "connected to \(endpoint) — \(connection?.hello.dropFirst(2) ?? ""); HELP lists verbs, Tab completes, \\q leaves"
        )
        current = self
        signalFD = tabula_signalfd_termination()
        setUpReadline()
        while !done {
            var fds = [
                pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
                pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0),
            ]
            if let c = connection { fds.append(pollfd(fd: c.line.fd, events: Int16(POLLIN), revents: 0)) }
            let timeout: Int32 = connection == nil ? Int32(max(0, nextAttempt.timeIntervalSinceNow) * 1000) + 1 : -1
            let n = poll(&fds, nfds_t(fds.count), timeout)
            if n < 0 { continue }
            if fds[1].revents != 0 { handleSignal() }
            if fds.count > 2 && fds[2].revents != 0 { drainSocket() }
            if fds[0].revents & Int16(POLLIN | POLLHUP) != 0 { rl_callback_read_char() }
            // Typed after the key that left `\live`: read here, not within that line's handler
            // (readline clears the line a handler leaves behind).
            while !typedAhead.isEmpty && !done { rl_callback_read_char() }
            if connection == nil && Date() >= nextAttempt { reconnect() }
        }
        rl_callback_handler_remove()
        _ = history_truncate_file(historyPath, 1000)
        return .ok
    }

    func setUpReadline() {
        rl_readline_name = UnsafePointer(strdup("tabula"))
        rl_catch_signals = 0
        rl_completer_word_break_characters = UnsafePointer(strdup(" \t"))
        rl_sort_completion_matches = 0  // the server's order: a setting's options as the setting lists them
        rl_getc_function = { stream in typedAhead.isEmpty ? rl_getc(stream) : Int32(typedAhead.removeFirst()) }
        rl_attempted_completion_function = { text, start, end in
            current?.complete(text: text, end: Int(end))
        }
        if options.hints && renderer.color {
            rl_redisplay_function = {
                rl_redisplay()
                current?.drawHint()
            }
        }
        using_history()
        stifle_history(1000)
        if !FileManager.default.fileExists(atPath: historyPath) {
            _ = FileManager.default.createFile(
                atPath: historyPath, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        read_history(historyPath)
        installLineHandler()
    }

    /// (Re)installs readline's line handler (after the live view had the terminal).
    func installLineHandler() {
        rl_callback_handler_install(prompt, { line in current?.accept(line) })
    }

    // MARK: - Lines

    /// Written to the history at once (survives a crash of the client), without its outer
    /// spaces and not again right after itself; an AUTH line, which holds a secret, never.
    private func remember(_ trimmed: String) {
        let previous =
            history_length > 0
            ? history_get(history_base + history_length - 1).flatMap { $0.pointee.line.map { String(cString: $0) } }
            : nil
        if !Credentials.holdsSecret(trimmed), trimmed != previous {
            add_history(trimmed)
            _ = append_history(1, historyPath)
        }
    }

    func accept(_ raw: UnsafeMutablePointer<CChar>?) {
        guard let raw else {
            print("")
            done = true
            return
        }
        let line = String(cString: raw)
        free(raw)
        eraseHint(ofAccepted: line)
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return }
        remember(trimmed)
        if ["quit", "exit", "\\q"].contains(trimmed.lowercased()) {
            done = true
            return
        }
        if trimmed.hasPrefix("\\") {
            meta(trimmed)
            return
        }
        guard let c = connection else {
            print(
                renderer.paint(
                    "not connected; retrying \(options.servers.endpoints.count > 1 ? "the servers" : "\(endpoint)") (the line was not sent)",
                    "33"))
            return
        }
        do {
            let started = Date()
            // 30 s, or the wait a SYNC asks for (no hidden 10 s limit any more).
            let reply: ServerReply
            do {
                reply = try c.request(
                    trimmed, timeout: ScriptRunner.requestTimeout(trimmed, limit: 30), interrupt: signalFD)
            } catch ClientError.interrupted {
                cancelWaiting(c)
                return
            }
            let took = Date().timeIntervalSince(started)
            lastReply = reply
            // The reply shows this line's own change: its event is not printed again.
            printPushes(c.takePushes().filter { !Interactive.isEvent($0, ofRevision: reply.reply.rev) }, redraw: false)
            var rows: Int32 = 0, cols: Int32 = 0
            rl_get_screen_size(&rows, &cols)
            for l in renderer.render(reply, width: cols > 0 ? Int(cols) : nil) { print(l) }
            if timing { print(renderer.paint(String(format: "Time: %.3f ms", took * 1000), "2")) }
            if trimmed.uppercased() == "HELP" {
                print(
                    renderer.paint(
                        "(\\? lists tabula's own \\ commands: \\echo, \\i, \\expect, \\wait, \\timing…)", "2"))
            }
            // Pushes that came in the same read as the reply are buffered already: poll would not report them.
            printPushes(c.pollPushes(), redraw: false)
            session.observe(request: trimmed, reply: reply)
            resumeRevision = max(resumeRevision, c.lastRevision)
        } catch {
            lost("\(error)")
        }
        rl_set_prompt(prompt)
    }

    // MARK: - Pushes and the connection

    func drainSocket() {
        guard let c = connection else { return }
        let pushes = c.pollPushes()
        resumeRevision = max(resumeRevision, c.lastRevision)
        printPushes(pushes, redraw: true)
        if c.line.isClosed { lost("the server closed the connection") }
    }

    /// Prints pushes above the prompt; the half-typed line and cursor are redrawn intact.
    func printPushes(_ pushes: [String], redraw: Bool) {
        let dropped = connection?.takeDropped() ?? 0
        guard !pushes.isEmpty || dropped > 0 else { return }
        if redraw { rl_clear_visible_line() }
        if dropped > 0 {
            print(
                renderer.paint(
                    "(\(dropped) pushes dropped: more than \(TabulaConnection.mostQueuedPushes) arrived while a reply was awaited; LS to look again)",
                    "33"))
        }
        for p in pushes { print(renderer.renderPush(p)) }
        fflush(stdout)
        if redraw { rl_forced_update_display() }
    }

    /// A signal came while a request waited: Ctrl-C cancels it — the connection goes with it
    /// (the server would answer its later requests only after it) and a new one resumes the
    /// session and watches at once, losing no event; another signal ends the client.
    func cancelWaiting(_ c: TabulaConnection) {
        var info = [UInt8](repeating: 0, count: 128)
        _ = read(signalFD, &info, 128)
        guard info.withUnsafeBytes({ $0.load(as: UInt32.self) }) == UInt32(SIGINT) else {
            done = true
            return
        }
        resumeRevision = max(resumeRevision, c.lastRevision)
        connection = nil
        nextAttempt = Date()
        print("")  // after the terminal's ^C
        print(renderer.paint("(cancelled; reconnecting with the session and watches kept)", "33"))
        rl_set_prompt(prompt)
    }

    func lost(_ why: String) {
        if let c = connection { resumeRevision = max(resumeRevision, c.lastRevision) }
        connection = nil
        reconnector.reset()
        nextAttempt = Date().addingTimeInterval(reconnector.delay)
        rl_clear_visible_line()
        print(renderer.paint("connection lost (\(why)); reconnecting…", "33"))
        rl_set_prompt(prompt)
        rl_forced_update_display()
    }

    /// Tries the servers after the lost one in turn (it comes last); all failing, waits longer.
    func reconnect() {
        for i in options.servers.failoverOrder(after: serverIndex) where connection == nil {
            if let resumed = try? Reconnector.resume(
                options.servers.endpoints[i], credentials: options.credentials, session: session, after: resumeRevision,
                historyID: historyID)
            {
                serverIndex = i
                resumedOn(resumed)
                return
            }
        }
        reconnector.failed()
        nextAttempt = Date().addingTimeInterval(reconnector.delay)
    }

    private func resumedOn(_ resumed: Reconnector.Resumed) {
        let c = resumed.connection
        _ = try? c.request("PING")  // a request at once, as on the first connection
        connection = c
        rl_clear_visible_line()
        if resumed.wasReset {
            print(
                renderer.paint(
                    "reconnected to \(endpoint), but the server's state was reset (it started a new history: id \(historyID) is now \(c.historyID)); what you saw before may be gone, LS to look again"
                        + (session.watches.isEmpty
                            ? "" : "; watches restarted from rev \(c.helloRevision), changes in between are not shown"),
                    "33"))
            resumeRevision = 0
        } else {
            let watches = session.watches.isEmpty ? "" : "; watches resumed after rev \(resumeRevision)"
            print(renderer.paint("reconnected to \(endpoint)\(watches)", "32"))
        }
        historyID = c.historyID
        for r in resumed.refused { print(renderer.paint("could not restore \(r)", "31")) }
        printPushes(c.takePushes() + c.pollPushes(), redraw: false)
        resumeRevision = max(resumeRevision, c.lastRevision)
        rl_set_prompt(prompt)
        rl_forced_update_display()
    }

    func handleSignal() {
        var info = [UInt8](repeating: 0, count: 128)
        guard read(signalFD, &info, 128) == 128 else { return }
        let signo = info.withUnsafeBytes { $0.load(as: UInt32.self) }
        if signo == UInt32(SIGINT) {
            // Ctrl-C: drop the half-typed line and start a fresh one, as psql and bash do.
            rl_free_line_state()
            rl_callback_sigcleanup()
            rl_replace_line("", 0)
            print("^C")
            rl_on_new_line()
            rl_redisplay()
        } else {
            done = true
        }
    }

    // MARK: - Completion

    func complete(text: UnsafePointer<CChar>?, end: Int) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        rl_attempted_completion_over = 1
        guard let c = connection, let buffer = rl_line_buffer else { return nil }
        let line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: end), as: UTF8.self)
        if line.hasPrefix("\\") && !line.contains(" ") {
            // The client's own meta-commands, completed here (the server does not know them).
            completionCandidates = Interactive.metaNames.filter { $0.hasPrefix(line) }
        } else {
            guard let reply = try? c.request("COMPLETE \(line)"), reply.isOK else { return nil }
            completionCandidates = reply.data.map(TerminalText.safe)
        }
        completionIndex = 0
        // A list to go into, or `field=` about to get its value: no space after it.
        if completionCandidates.count == 1,
            completionCandidates[0].hasSuffix("/") || completionCandidates[0].hasSuffix("=")
        {
            rl_completion_suppress_append = 1
        }
        guard let text else { return nil }
        return rl_completion_matches(
            text,
            { _, state in
                if state == 0 { completionIndex = 0 }
                guard completionIndex < completionCandidates.count else { return nil }
                defer { completionIndex += 1 }
                return strdup(completionCandidates[completionIndex])
            })
    }
}
