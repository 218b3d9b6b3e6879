@preconcurrency import CReadline
import Foundation
import Glibc
import TabulaClient
import TabulaProtocol

/// The `\\` meta-commands at the prompt: the same as in scripts (`ScriptRunner`), plus
/// `\\timing`; `\\?` lists them.
extension Interactive {
    static let metaHelp = """
        \\echo TEXT              print TEXT
        \\i FILE                 run a script file here (its replies as the protocol's lines)
        \\expect REGEX           check that a line of the last reply matches REGEX
        \\expect-error [CODE]    check that the last request failed (with CODE)
        \\wait REGEX [SECONDS]   wait for a push matching REGEX (default 5 s)
        \\timing                 show each request's round trip (again: stop)
        \\live [PATH]            a full-screen live table of PATH (q returns here)
        \\watch SECONDS COMMAND  run COMMAND every SECONDS until Ctrl-C, as psql's \\watch
        \\q                      leave (also quit, exit, Ctrl-D)
        \\?                      this list; HELP lists the server's verbs
        """

    /// The meta-commands' names, for Tab.
    static let metaNames = [
        "\\?", "\\echo", "\\expect", "\\expect-error", "\\i", "\\live", "\\q", "\\timing", "\\wait", "\\watch",
    ]

    func meta(_ line: String) {
        let name = line.prefix { $0 != " " }.lowercased()
        let rest = String(line.dropFirst(name.count).drop { $0 == " " })
        switch name {
        case "\\?", "\\help": print(Interactive.metaHelp)
        case "\\timing":
            timing.toggle()
            print(renderer.paint("timing is \(timing ? "on" : "off")", "2"))
        case "\\echo": print(rest)
        case "\\watch": watchCommand(rest)
        case "\\live":
            let target =
                rest.isEmpty
                ? session.cwd : rest.hasPrefix("/") ? rest : (session.cwd == "/" ? "" : session.cwd) + "/" + rest
            rl_callback_handler_remove()
            let view = LiveView(path: target, connect: { try tryConnect(self.options) })
            let problem = view.run()
            installLineHandler()
            if let problem { print(renderer.paint(problem.message, "31")) }
            // What was typed after the key that left, in the same read (Esc, then `PING`): the
            // prompt reads it first, once this line's handler has returned (`run`).
            typedAhead.append(contentsOf: view.input)
        case "\\expect":
            let ok =
                (try? NSRegularExpression(pattern: rest)).map { r in
                    lastReply?.lines.contains { r.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil }
                        ?? false
                } ?? false
            print(
                renderer.paint(
                    ok ? "expected: matched" : "expectation failed: /\(rest)/ is not in the last reply",
                    ok ? "32" : "31"))
        case "\\expect-error":
            let code = lastReply?.reply.error?.code.rawValue
            let ok = code != nil && (rest.isEmpty || code == rest.uppercased())
            print(
                renderer.paint(
                    ok
                        ? "expected: it failed with \(code ?? "")"
                        : "expectation failed: the last request \(code.map { "failed with \($0)" } ?? "succeeded")",
                    ok ? "32" : "31"))
        case "\\i", "\\include", "\\wait":
            guard let c = connection else { return print(renderer.paint("not connected", "33")) }
            let runner = ScriptRunner(
                connection: c, onError: .stop, out: { print($0) }, err: { print(self.renderer.paint($0, "31")) })
            runner.interrupt = signalFD  // Ctrl-C ends a \wait
            do {
                try runner.runLine(line, directory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            } catch ClientError.interrupted {
                var info = [UInt8](repeating: 0, count: 128)
                _ = read(signalFD, &info, 128)
                print("\n" + renderer.paint("(\\wait cancelled)", "33"))
            } catch {
                print(renderer.paint("\(error)", "31"))
            }
        default: print(renderer.paint("unknown meta-command \(name); \\? lists them", "31"))
        }
    }

    /// Whether `push` is the text event of revision `rev` (a change this client just made).
    static func isEvent(_ push: String, ofRevision rev: UInt64?) -> Bool {
        guard let rev, case .event(let e)? = WireDecoder.textPush(push) else { return false }
        return e.rev == rev
    }

    /// `\\watch SECONDS COMMAND`: runs COMMAND, then again every SECONDS, until Ctrl-C.
    func watchCommand(_ rest: String) {
        let words = rest.split(separator: " ", maxSplits: 1)
        guard words.count == 2, let seconds = Double(words[0]), seconds > 0 else {
            return print(renderer.paint("usage: \\watch SECONDS COMMAND (e.g. \\watch 2 LS /orders)", "31"))
        }
        let command = String(words[1])
        while let c = connection {
            print(renderer.paint("Every \(words[0]) s: \(command)   \(Date())   (Ctrl-C stops)", "2"))
            guard
                let reply = try? c.request(
                    command, timeout: ScriptRunner.requestTimeout(command, limit: 30), interrupt: signalFD)
            else { break }
            for l in renderer.render(reply) { print(l) }
            fflush(stdout)
            var pfd = pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, Int32(seconds * 1000)) > 0 { break }  // a signal: stop watching
        }
        var info = [UInt8](repeating: 0, count: 128)
        var pfd = pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0)
        if poll(&pfd, 1, 0) > 0 {  // the Ctrl-C that stopped it (after the terminal's ^C)
            _ = read(signalFD, &info, 128)
            print("")
        }
        print(renderer.paint("(\\watch stopped)", "2"))
    }
}
