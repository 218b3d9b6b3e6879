import CLinuxShims
import Foundation
import Glibc
import TabulaClient
import TabulaModel

let help = """
    tabula — the Tabula client: interactive (readline) or batch (scripts, CI)

    USAGE:
      tabula [options]                      interactive when stdin is a terminal,
                                            otherwise runs the lines read from stdin
      tabula [options] -f FILE              run a script file
      tabula [options] -c COMMAND [-c …]    run commands
      tabula [options] import FILE [--into PATH]
                                            load a catalog property list (seed 001's
                                            shape: Title, Children, View = 1/2/3) or JSON
                                            into PATH (default /catalog)

    OPTIONS:
      -h, --host HOST        server address (default $TABULA_HOST or 127.0.0.1)
      -p, --port PORT        server port (default $TABULA_PORT or 8228)
      -f, --file FILE        run FILE in batch mode
      -c, --command LINE     run LINE in batch mode (repeatable, in order)
      --on-error stop|continue
                             batch: stop at the first error (default), or run every line
      --json                 ask the server for JSON replies and print them as they come
      --no-color             no colour (also when NO_COLOR is set or stdout is not a terminal)
      --help                 print this help
      --version              print the version

    BATCH SCRIPTS: one request per line, as typed into nc. Also:
      # comment              a line starting with "# " (a tag such as #t1 has no space)
      \\echo TEXT             print TEXT
      \\expect REGEX          fail unless a line of the last reply matches REGEX
      \\wait REGEX [SECONDS]  wait for a push matching REGEX (default 5 s), fail on timeout
      \\i FILE                run FILE (relative to the current script) here
      \\q                     stop, successfully
    Replies go to stdout as the protocol lines; errors go to stderr as FILE:LINE: ERR ….

    INTERACTIVE: line editing and ~/.inputrc (application name "tabula"), history in
    ~/.tabula_history ($TABULA_HISTFILE), Tab completes verbs, paths, options and menu
    entries; pushes from WATCH appear above the prompt. Ctrl-C clears the line; Ctrl-D,
    quit or \\q leaves. A lost connection is retried and watches resume where they were.

    EXIT STATUS (as psql):
      0  success
      1  usage or client error (bad option, unreadable file)
      2  connection failed or lost
      3  a script error stopped the run (with --on-error continue: any error occurred)

    """

func die(_ message: String, _ code: Int32) -> Never {
    FileHandle.standardError.write(Data("tabula: \(message)\n".utf8))
    exit(code)
}

struct Options {
    var host = ProcessInfo.processInfo.environment["TABULA_HOST"] ?? "127.0.0.1"
    var port = Int(ProcessInfo.processInfo.environment["TABULA_PORT"] ?? "") ?? 8228
    var file: String?
    var commands: [String] = []
    var onError = ScriptRunner.OnError.stop
    var json = false
    var color = true
    var importFile: String?
    var into = "/catalog"
}

func parseOptions() -> Options {
    var o = Options()
    var args = Array(CommandLine.arguments.dropFirst())[...]
    func value(_ flag: String) -> String {
        guard let v = args.popFirst() else { die("\(flag) needs a value; see tabula --help", ExitCode.usage) }
        return v
    }
    while let a = args.popFirst() {
        switch a {
        case "--help": print(help, terminator: ""); exit(ExitCode.ok)
        case "--version": print("tabula 0.1.0"); exit(ExitCode.ok)
        case "-h", "--host": o.host = value(a)
        case "-p", "--port":
            let v = value(a)
            guard let p = Int(v), (1...65535).contains(p) else { die("--port takes a number from 1 to 65535, not '\(v)'", ExitCode.usage) }
            o.port = p
        case "-f", "--file": o.file = value(a)
        case "-c", "--command": o.commands.append(value(a))
        case "--on-error":
            let v = value(a)
            guard let e = ScriptRunner.OnError(rawValue: v) else { die("--on-error takes stop or continue, not '\(v)'", ExitCode.usage) }
            o.onError = e
        case "--json": o.json = true
        case "--no-color": o.color = false
        case "--into": o.into = value(a)
        case "import":
            o.importFile = value("import")
        default:
            die("unknown option '\(a)'; see tabula --help", ExitCode.usage)
        }
    }
    if o.file != nil && !o.commands.isEmpty { die("give -f or -c, not both", ExitCode.usage) }
    return o
}

func connect(_ o: Options) -> TabulaConnection {
    do {
        return try TabulaConnection(host: o.host, port: o.port)
    } catch {
        die("\(error)", ExitCode.connection)
    }
}

func printOut(_ s: String) {
    FileHandle.standardOutput.write(Data((s + "\n").utf8))
}
func printErr(_ s: String) {
    FileHandle.standardError.write(Data((s + "\n").utf8))
}

let options = parseOptions()

if let file = options.importFile {
    guard let data = FileManager.default.contents(atPath: file) else { die("cannot read \(file)", ExitCode.usage) }
    let drafts: [CatalogDraft]
    switch CatalogImport.parse([UInt8](data)) {
    case .success(let d): drafts = d
    case .failure(let e): die("\(file): \(e.message)", ExitCode.usage)
    }
    let conn = connect(options)
    do {
        switch try CatalogImporter.run(drafts, into: options.into, connection: conn) {
        case .success(let n): printOut("imported \(n) nodes from \(file) into \(options.into)")
        case .failure(let e): die("import stopped: \(e.message)", ExitCode.script)
        }
    } catch {
        die("\(error)", ExitCode.connection)
    }
    exit(ExitCode.ok)
}

let batch = options.file != nil || !options.commands.isEmpty || isatty(0) == 0
if batch {
    let text: String
    let source: String
    if let f = options.file {
        guard let d = FileManager.default.contents(atPath: f), let t = String(data: d, encoding: .utf8) else {
            die("cannot read \(f)", ExitCode.usage)
        }
        (text, source) = (t, f)
    } else if !options.commands.isEmpty {
        (text, source) = (options.commands.joined(separator: "\n"), "-c")
    } else {
        let d = FileHandle.standardInput.readDataToEndOfFile()
        (text, source) = (String(decoding: d, as: UTF8.self), "<stdin>")
    }
    let conn = connect(options)
    if options.json {
        do { _ = try conn.request("FORMAT json") } catch { die("\(error)", ExitCode.connection) }
    }
    let runner = ScriptRunner(connection: conn, onError: options.onError, out: printOut, err: printErr)
    exit(runner.run(text, source: source))
}

let color = options.color && isatty(1) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"].map { $0.isEmpty } ?? true
let app = Interactive(options: options, renderer: Renderer(color: color))
exit(app.run())
