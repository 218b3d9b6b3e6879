@preconcurrency import CReadline
import Foundation
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
        \\q                      leave (also quit, exit, Ctrl-D)
        \\?                      this list; HELP lists the server's verbs
        """

    func meta(_ line: String) {
        let name = line.prefix { $0 != " " }.lowercased()
        let rest = String(line.dropFirst(name.count).drop { $0 == " " })
        switch name {
        case "\\?", "\\help": print(Interactive.metaHelp)
        case "\\timing":
            timing.toggle()
            print(renderer.paint("timing is \(timing ? "on" : "off")", "2"))
        case "\\echo": print(rest)
        case "\\live":
            let target = rest.isEmpty ? session.cwd : rest.hasPrefix("/") ? rest : (session.cwd == "/" ? "" : session.cwd) + "/" + rest
            rl_callback_handler_remove()
            let problem = LiveView(path: target, connect: { try tryConnect(self.options) }).run()
            installLineHandler()
            if let problem { print(renderer.paint(problem, "31")) }
        case "\\expect":
            let ok = (try? NSRegularExpression(pattern: rest)).map { r in lastReply?.lines.contains { r.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil } ?? false } ?? false
            print(renderer.paint(ok ? "expected: matched" : "expectation failed: /\(rest)/ is not in the last reply", ok ? "32" : "31"))
        case "\\expect-error":
            let code = lastReply?.reply.error?.code.rawValue
            let ok = code != nil && (rest.isEmpty || code == rest.uppercased())
            print(renderer.paint(ok ? "expected: it failed with \(code ?? "")" : "expectation failed: the last request \(code.map { "failed with \($0)" } ?? "succeeded")", ok ? "32" : "31"))
        case "\\i", "\\include", "\\wait":
            guard let c = connection else { return print(renderer.paint("not connected", "33")) }
            let runner = ScriptRunner(connection: c, onError: .stop, out: { print($0) }, err: { print(self.renderer.paint($0, "31")) })
            do { try runner.runLine(line, directory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) } catch { print(renderer.paint("\(error)", "31")) }
        default: print(renderer.paint("unknown meta-command \(name); \\? lists them", "31"))
        }
    }

    /// Whether `push` is the text event of revision `rev` (a change this client just made).
    static func isEvent(_ push: String, ofRevision rev: UInt64?) -> Bool {
        guard let rev, case .event(let e)? = WireDecoder.textPush(push) else { return false }
        return e.rev == rev
    }
}
