import CLinuxShims
import Foundation
import Glibc
import TabulaClient
import TabulaCommandLine
import TabulaModel
import TabulaProtocol

let commandLine = CommandLineSpec(
    tool: "tabula", summary: "the Tabula client: interactive (readline) or batch (scripts, CI)",
    usage: [
        "tabula [options]                      interactive when stdin is a terminal,",
        "                                      otherwise runs the lines read from stdin",
        "tabula [options] -f FILE              run a script file",
        "tabula [options] -c COMMAND [-c …]    run commands",
        "tabula [options] live [PATH]          a full-screen live table of PATH (q leaves)",
        "tabula [options] import FILE [--into PATH]",
        "                                      load a catalog property list (seed 001's",
        "                                      shape: Title, Children, View = 1/2/3) or JSON",
        "                                      into PATH (default /catalog)",
    ],
    options: [
        OptionSpec(
            "-h", "--host", value: "HOST[:PORT]", repeatable: true,
            help:
                "server address (default $TABULA_HOST or 127.0.0.1); several\n(repeated, or a comma list): the first that answers is used and,\nwhen it goes away, the next, with the session and watches resumed"
        ),
        OptionSpec("-p", "--port", value: "PORT", help: "server port (default $TABULA_PORT or 8228)"),
        OptionSpec("--unix", value: "PATH", help: "connect to tabulad's Unix socket at PATH instead of TCP"),
        OptionSpec(
            "--tls",
            help:
                "connect with TLS (to tabulad's --tls-port), verifying its\ncertificate for HOST against the system's CAs or --cacert"
        ),
        OptionSpec(
            "--cacert", value: "FILE",
            help: "with --tls: trust the CA certificate(s) in FILE (PEM), e.g. a\nself-signed server certificate"),
        OptionSpec(
            "-U", "--user", value: "NAME",
            help:
                "log in as NAME on connect and on every reconnect (default\n$TABULA_USER); the secret comes from $TABULA_SECRET or, at a\nterminal, a prompt that does not echo"
        ),
        OptionSpec("-f", "--file", value: "FILE", help: "run FILE in batch mode (- for standard input)"),
        OptionSpec(
            "--timeout", value: "SECONDS",
            help:
                "batch: a request or a \\wait may take at most this long (default:\nas long as it asks; a SYNC … TIMEOUT ms is given its wait)"
        ),
        OptionSpec(
            "-c", "--command", value: "LINE", repeatable: true, help: "run LINE in batch mode (repeatable, in order)"),
        OptionSpec(
            "--on-error", value: "stop|continue", help: "batch: stop at the first error (default), or run every line"),
        OptionSpec("--json", help: "ask the server for JSON replies and print them as they come"),
        OptionSpec("--csv", help: "batch: print LS/SHOW data rows as CSV (a header, then records)"),
        OptionSpec("--tsv", help: "batch: the same, tab-separated"),
        OptionSpec("-q", "--quiet", help: "batch: print only data rows"),
        OptionSpec("--no-color", help: "no colour (also when NO_COLOR is set or stdout is not a terminal)"),
        OptionSpec("--no-hints", help: "no dimmed rest-of-usage after the cursor at the prompt (also\nwithout colour)"),
        OptionSpec("--into", value: "PATH", help: "import: the catalog branch to import into (default /catalog)"),
        OptionSpec(
            "--completion", value: "bash|zsh|fish",
            help: "print a completion script for this shell and exit, e.g.\nsource <(tabula --completion bash)"),
    ],
    epilogue: """
        BATCH SCRIPTS: one request per line, as typed into nc. Also:
          # comment              a line starting with #, unless it is a tagged request
                                 (#TAG VERB …, with a verb the server knows)
          \\echo TEXT             print TEXT (a JSON object with --json)
          \\expect REGEX          fail unless a line of the last reply, as printed (text,
                                 JSON, or CSV/TSV records), matches REGEX
          \\expect-error [CODE]   the request before must fail (with CODE): then it passes
          \\wait REGEX [SECONDS]  wait for a push matching REGEX (default 5 s), fail on timeout;
                                 with --json the event is matched, not its JSON
        A meta-command may end in a comment ( # …). With --json every reply, errors
        included, is one JSON object on stdout (errors also on stderr).
          \\i FILE                run FILE (relative to the current script) here
          \\q                     stop, successfully
        Replies go to stdout as the protocol lines; errors go to stderr as FILE:LINE: ERR ….

        INTERACTIVE: line editing and ~/.inputrc (application name "tabula"), history in
        ~/.tabula_history ($TABULA_HISTFILE), Tab completes what each verb takes there,
        the rest of its usage is hinted dimmed (--no-hints); pushes from WATCH appear above
        the prompt; \\? lists the \\ commands (\\live, \\watch, \\timing, \\echo, \\i…).
        Ctrl-C clears the line or cancels a waiting request; Ctrl-D, quit or \\q leaves.
        A lost connection is retried and watches resume where they were; if the server
        started a new history meanwhile, tabula says so and watches from now.

        EXIT STATUS (as psql):
          0  success
          1  usage or client error (bad option, unreadable file)
          2  connection failed or lost
          3  a script error stopped the run (with --on-error continue: any error occurred)
        """)

func die(_ message: String, _ status: ExitStatus) -> Never {
    FileHandle.standardError.write(Data("tabula: \(message)\n".utf8))
    exit(status.rawValue)
}

struct Options {
    var hosts = [ProcessInfo.processInfo.environment["TABULA_HOST"] ?? "127.0.0.1"]
    var port = Int(ProcessInfo.processInfo.environment["TABULA_PORT"] ?? "") ?? 8228
    var file: String?
    var commands: [String] = []
    var onError = ScriptRunner.OnError.stop
    var json = false
    var color = true
    var hints = true
    var timeout: Double?
    var table: TableOutput?
    var quiet = false
    var livePath: String?
    var importFile: String?
    var into = "/catalog"
    var credentials: Credentials?
    var unixPath: String?
    var tls = false
    var caFile: String?

    /// Where to connect, in order of preference.
    var servers = HostList(endpoints: [])
}

extension Options {
    static func from(_ arguments: [String]) throws(UsageError) -> Options {
        let p = try commandLine.parseOrAnswer(arguments, version: Release.version)
        if let shell = p.string("--completion") {
            guard let script = commandLine.completionScript(shell: shell, words: ["import"]) else {
                throw UsageError(
                    "--completion takes \(CommandLineSpec.completionShells.joined(separator: ", ")), not '\(shell)'")
            }
            print(script, terminator: "")
            exit(ExitStatus.ok.rawValue)
        }
        var o = Options()
        if !p.strings("--host").isEmpty { o.hosts = p.strings("--host") }
        if let v = try p.int("--port", in: 1...65535) { o.port = v }
        o.unixPath = p.string("--unix")
        o.tls = p.has("--tls")
        o.caFile = p.string("--cacert")
        if o.caFile != nil && !o.tls { throw UsageError("--cacert goes with --tls") }
        if o.tls && o.unixPath != nil { throw UsageError("--tls is for TCP, not --unix") }
        o.file = p.string("--file")
        o.commands = p.strings("--command")
        if let v = try p.choice("--on-error", ["stop", "continue"]), let e = ScriptRunner.OnError(rawValue: v) {
            o.onError = e
        }
        o.json = p.has("--json")
        o.color = !p.has("--no-color")
        o.hints = !p.has("--no-hints")
        o.quiet = p.has("--quiet")
        if p.has("--csv") && p.has("--tsv") { throw UsageError("give --csv or --tsv, not both") }
        o.table = p.has("--csv") ? .csv : p.has("--tsv") ? .tsv : nil
        if let t = p.string("--timeout") {
            guard let v = Double(t), v > 0 else {
                throw UsageError("--timeout takes a number of seconds above 0, not '\(t)'")
            }
            o.timeout = v
        }
        if let v = p.string("--into") { o.into = v }
        if let user = p.string("--user") ?? ProcessInfo.processInfo.environment["TABULA_USER"] {
            o.credentials = Credentials(name: user, secret: try secret(for: user))
        }
        try o.take(positionals: p.positionals)
        if o.file != nil && !o.commands.isEmpty { throw UsageError("give -f or -c, not both") }
        if let path = o.unixPath {
            o.servers = HostList(endpoints: [.unix(path)])
        } else {
            do { o.servers = try HostList(o.hosts, defaultPort: o.port, tls: o.tls, caFile: o.caFile) } catch {
                throw UsageError("--host: \(error)")
            }
        }
        return o
    }

    /// What the words after the options ask for: `import FILE`, `live [PATH]`, or nothing.
    mutating func take(positionals: [String]) throws(UsageError) {
        switch positionals.first {
        case nil: break
        case "import":
            guard positionals.count == 2 else {
                throw UsageError("import takes one FILE: tabula import FILE [--into PATH]")
            }
            importFile = positionals[1]
        case "live":
            guard positionals.count <= 2 else { throw UsageError("live takes one PATH: tabula live /items") }
            livePath = positionals.count == 2 ? positionals[1] : "/"
        case let word? where Verb.named(word) != nil:
            let line = positionals.joined(separator: " ").replacingOccurrences(of: "'", with: "'\\''")
            throw UsageError("'\(word)' is a request, not a tabula command; send it with -c: tabula -c '\(line)'")
        case let word?: throw UsageError("unexpected argument '\(word)'; see tabula --help")
        }
    }
}

/// The secret for `user`: `$TABULA_SECRET`, or asked for at a terminal.
func secret(for user: String) throws(UsageError) -> String {
    if let s = ProcessInfo.processInfo.environment["TABULA_SECRET"], !s.isEmpty { return s }
    guard isatty(0) != 0 else {
        throw UsageError("--user \(user) needs a secret: set TABULA_SECRET (standard input is the script)")
    }
    guard let s = SecretPrompt.read(prompt: "secret for \(user): "), !s.isEmpty else {
        throw UsageError("no secret given for \(user)")
    }
    return s
}

/// A connection to the first server of the list that answers.
/// A connection to the first of the servers that answers (logged in); throws otherwise.
func tryConnect(_ o: Options) throws -> TabulaConnection {
    var last: Error = ClientError.connectFailed("no server to connect to")
    for endpoint in o.servers.endpoints {
        do {
            let c = try TabulaConnection(endpoint)
            if let credentials = o.credentials { try c.authenticate(credentials) }
            return c
        } catch {
            last = error
        }
    }
    throw last
}

func connect(_ o: Options) -> TabulaConnection {
    var errors: [String] = []
    for endpoint in o.servers.endpoints {
        do {
            let c = try TabulaConnection(endpoint)
            if let credentials = o.credentials { try c.authenticate(credentials) }
            return c
        } catch ClientError.refused(let m) {
            die(m, .unavailable)
        } catch {
            errors.append("\(error)")
        }
    }
    die(errors.joined(separator: "; "), .unavailable)
}

func printOut(_ s: String) {
    FileHandle.standardOutput.write(Data((s + "\n").utf8))
}
func printErr(_ s: String) {
    FileHandle.standardError.write(Data((s + "\n").utf8))
}

let options: Options
do {
    options = try Options.from(Array(CommandLine.arguments.dropFirst()))
} catch {
    die(error.message, .usage)
}

if let path = options.livePath {
    guard isatty(1) != 0 else { die("live needs a terminal", .usage) }
    if let problem = LiveView(path: path, connect: { try tryConnect(options) }).run() {
        die(problem.message, problem.refused ? .usage : .unavailable)
    }
    exit(ExitStatus.ok.rawValue)
}

if let file = options.importFile {
    guard let data = FileManager.default.contents(atPath: file) else { die("cannot read \(file)", .usage) }
    let drafts: [CatalogDraft]
    switch CatalogImport.parse([UInt8](data)) {
    case .success(let d): drafts = d
    case .failure(let e): die("\(file): \(e.message)", .usage)
    }
    let conn = connect(options)
    do {
        switch try CatalogImporter.run(drafts, into: options.into, connection: conn) {
        case .success(let report): printOut(report.summary(from: file, into: options.into))
        case .failure(let e): die("import stopped: \(e.message)", .script)
        }
    } catch {
        die("\(error)", .unavailable)
    }
    exit(ExitStatus.ok.rawValue)
}

let batch = options.file != nil || !options.commands.isEmpty || isatty(0) == 0
if batch {
    let text: String
    let source: String
    if let f = options.file, f != "-" {
        switch ReadableFile.text(f) {
        case .success(let t): (text, source) = (t, f)
        case .failure(let problem): die("\(problem)", .usage)
        }
    } else if !options.commands.isEmpty {
        (text, source) = (options.commands.joined(separator: "\n"), "-c")
    } else {
        let d = FileHandle.standardInput.readDataToEndOfFile()
        (text, source) = (String(decoding: d, as: UTF8.self), "<stdin>")
    }
    let conn = connect(options)
    if options.json || options.table != nil {  // a table is made from the JSON rows
        do { _ = try conn.request("FORMAT json") } catch { die("\(error)", .unavailable) }
    }
    let runner = ScriptRunner(
        connection: conn, onError: options.onError, json: options.json, timeout: options.timeout, table: options.table,
        quiet: options.quiet, out: printOut, err: printErr)
    exit(runner.run(text, source: source).rawValue)
}

let color =
    options.color && isatty(1) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"].map { $0.isEmpty } ?? true
let app = Interactive(options: options, renderer: Renderer(color: color))
exit(app.run().rawValue)
