import CLinuxShims
import Foundation
import Glibc
import TabulaServer
import TabulaStorage

let usage = """
    tabulad — the Tabula live-state server

    USAGE: tabulad [options]

    OPTIONS:
      --bind ADDR            address to listen on (default 127.0.0.1; 0.0.0.0 for all)
      --port N               TCP port (default 8228); 0 picks a free port and prints it
                             on stdout as the first line
      --data PATH            SQLite database file (default ./tabula.sqlite); created and
                             seeded with example data when it does not exist
      --memory               keep everything in memory only; nothing survives exit
      --sync full|normal     full (default): an OK means the change is fsynced to disk;
                             normal: committed to the WAL, fsynced at checkpoints, so a
                             power cut (not a crash of tabulad) may lose the last changes
      --history N            changes kept for WATCH … FROM: on disk, default 1000000
                             (the newest 100000 also in memory); with --memory, in
                             memory, default 100000
      --max-size BYTES       cap the database file; a write that would pass it fails with
                             ERR STORAGE, as on a full disk (default: no cap)
      --max-connections N    most clients at once (default 10000); more are told so and closed
      --max-line BYTES       longest request line (default 65536)
      --output-limit BYTES   most bytes queued for one client before it is dropped as a
                             slow consumer (default 8388608)
      --io-threads N         I/O loop threads (default 2)
      --cpu-yield on|off     on (default): while several clients keep a loop busy, a loop
                             woken for only one or two requests gives the CPU away once
                             before serving them, so that clients on the same cores send
                             more and are served in bigger batches (~1.3x requests/s with
                             10-50 clients on a 2-core box; a lone client never waits);
                             off serves at once: lower throughput there, but a lower p99
                             (1.25 vs 1.6 ms at 50 clients)
      --log-level LEVEL      error, warn, info (default) or debug; logs go to stderr
      --version              print the version and exit
      --help                 print this help and exit

    SIGINT or SIGTERM: stop accepting, answer requests in flight, say "* BYE" to every
    client, close, exit 0.

    EXIT STATUS: 0 after a clean shutdown, 1 for a usage error, 2 when the server cannot
    start (port in use, unusable data file).

    """

enum Exit {
    static let ok: Int32 = 0
    static let usage: Int32 = 1
    static let startFailed: Int32 = 2
}

func fail(_ message: String, _ code: Int32) -> Never {
    FileHandle.standardError.write(Data("tabulad: \(message)\n".utf8))
    exit(code)
}

var config = ServerConfig()
var dataPath = "tabula.sqlite"
var memory = false
var sync = "full"
var historyOnDisk = 1_000_000
var historyGiven = false
var maxSize: Int?
var args = CommandLine.arguments.dropFirst()

@MainActor func value(_ flag: String) -> String {
    guard let v = args.popFirst() else { fail("\(flag) needs a value; see tabulad --help", Exit.usage) }
    return v
}
@MainActor func number(_ flag: String, min: Int = 0) -> Int {
    let v = value(flag)
    guard let n = Int(v), n >= min else { fail("\(flag) takes a whole number of at least \(min), not '\(v)'", Exit.usage) }
    return n
}

while let arg = args.popFirst() {
    switch arg {
    case "--help", "-h": print(usage, terminator: ""); exit(Exit.ok)
    case "--version": print("tabulad \(ServerConfig.version)"); exit(Exit.ok)
    case "--bind": config.bind = value(arg)
    case "--port":
        config.port = number(arg)
        if config.port > 65535 { fail("--port must be 0 to 65535", Exit.usage) }
    case "--data": dataPath = value(arg)
    case "--memory": memory = true
    case "--sync":
        sync = value(arg)
        guard sync == "full" || sync == "normal" else { fail("--sync takes full or normal, not '\(sync)'", Exit.usage) }
    case "--history":
        historyOnDisk = number(arg, min: 1)
        historyGiven = true
    case "--max-size": maxSize = number(arg, min: 65536)
    case "--max-connections": config.maxConnections = number(arg, min: 1)
    case "--max-line": config.maxLine = number(arg, min: 16)
    case "--output-limit": config.outputLimit = number(arg, min: 1024)
    case "--io-threads": config.ioThreads = Swift.min(64, number(arg, min: 1))
    case "--cpu-yield":
        let v = value(arg)
        guard v == "on" || v == "off" else { fail("--cpu-yield takes on or off, not '\(v)'", Exit.usage) }
        config.cpuYield = v == "on"
    case "--log-level":
        let v = value(arg)
        guard let l = LogLevel(name: v) else { fail("--log-level takes error, warn, info or debug, not '\(v)'", Exit.usage) }
        config.logLevel = l
    default:
        let known = ["--bind", "--port", "--data", "--memory", "--sync", "--history", "--max-size", "--max-connections", "--max-line", "--output-limit", "--io-threads", "--cpu-yield", "--log-level", "--version", "--help"]
        let near = known.min { a, b in levenshtein(a, arg) < levenshtein(b, arg) }
        fail("unknown option '\(arg)'\(near.map { "; did you mean \($0)?" } ?? ""); see tabulad --help", Exit.usage)
    }
}

func levenshtein(_ a: String, _ b: String) -> Int {
    let x = Array(a), y = Array(b)
    var prev = Array(0...y.count)
    for i in 1...max(1, x.count) where !x.isEmpty {
        var cur = [i] + Array(repeating: 0, count: y.count)
        for j in 1...max(1, y.count) where !y.isEmpty {
            cur[j] = Swift.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
        }
        prev = cur
    }
    return prev[y.count]
}

config.setHistory(historyGiven ? historyOnDisk : nil, durable: !memory)

// Block SIGINT/SIGTERM before any thread starts, so that only the signalfd sees them.
let signalFD = tabula_signalfd_termination()
guard signalFD >= 0 else { fail("cannot set up signal handling", Exit.startFailed) }

let store: StateStore
do {
    store = memory ? MemoryStore() : try SQLiteStore(path: dataPath, syncFull: sync == "full", historyLimit: historyOnDisk, maxBytes: maxSize)
} catch {
    fail("\(error)", Exit.startFailed)
}

let server: Server
do {
    server = try Server(config: config, store: store)
} catch {
    fail("\(error)", Exit.startFailed)
}
if config.port == 0 {
    FileHandle.standardOutput.write(Data("\(server.port)\n".utf8))
}
server.start()

var pfd = pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0)
while poll(&pfd, 1, -1) < 0 && errno == EINTR {}
server.stop()
exit(Exit.ok)
