import CLinuxShims
import Foundation
import Glibc
import TabulaCommandLine
import TabulaServer
import TabulaStorage

let commandLine = CommandLineSpec(
    tool: "tabulad", summary: "the Tabula live-state server",
    usage: ["tabulad [options]", "tabulad passwd NAME ROLE [--allow PREFIX]… [--deny PREFIX]… [--generate]"],
    options: [
        OptionSpec(
            "--bind", value: "ADDR",
            help: "address to listen on (default 127.0.0.1; 0.0.0.0 for all, which\nneeds --users)"),
        OptionSpec(
            "--port", value: "N",
            help:
                "TCP port (default 8228); 0 picks a free port and prints it\non stdout as the first line. It speaks the line protocol, and\nRESP2/RESP3 to a client whose first request is RESP (redis-cli)"
        ),
        OptionSpec(
            "--data", value: "PATH",
            help:
                "SQLite database file (default ./tabula.sqlite); created and\nseeded with example data when it does not exist"
        ),
        OptionSpec("--memory", help: "keep everything in memory only; nothing survives exit"),
        OptionSpec(
            "--postgres", value: "CONNINFO",
            help:
                "keep everything in a PostgreSQL database (a libpq connection\nstring or URI; PG* environment variables apply): every node\ngiven the same database is one cluster, sharing one history"
        ),
        OptionSpec(
            "--sync", value: "full|normal",
            help:
                "full (default): an OK means the change is fsynced to disk;\nnormal: committed to the WAL, fsynced at checkpoints, so a\npower cut (not a crash of tabulad) may lose the last changes"
        ),
        OptionSpec(
            "--history-memory", value: "BYTES",
            help:
                "bytes of events (paths and summaries) kept in memory for\nWATCH … FROM, at most (default 67108864); older ones are\nread from the store, or with --memory are gone"
        ),
        OptionSpec(
            "--history", value: "N",
            help:
                "changes kept for WATCH … FROM: on disk, default 1000000\n(the newest 100000 also in memory); with --memory, in\nmemory, default 100000"
        ),
        OptionSpec(
            "--max-size", value: "BYTES",
            help:
                "cap the database file; a write that would pass it fails with\nERR STORAGE, as on a full disk (default: no cap)"
        ),
        OptionSpec(
            "--users", value: "FILE",
            help:
                "turn access control on: connections AUTH as a user of FILE\n(lines from tabulad passwd) and may do what its role and\ngrants allow; SIGHUP reloads FILE"
        ),
        OptionSpec(
            "--allow-anyone-on-the-network",
            help:
                "listen on a non-loopback --bind without --users, letting\nanyone who reaches the port read and change everything"
        ),
        OptionSpec(
            "--tls-port", value: "N",
            help:
                "also serve TLS 1.2/1.3 on port N (0 picks a free one and prints\nit on stdout after the plain port); needs --tls-cert and\n--tls-key"
        ),
        OptionSpec("--tls-cert", value: "FILE", help: "the certificate chain for --tls-port and --https-port, PEM"),
        OptionSpec("--tls-key", value: "FILE", help: "its private key, PEM"),
        OptionSpec("--no-plain-port", help: "do not serve plain TCP: only --tls-port and/or --unix"),
        OptionSpec(
            "--unix", value: "PATH",
            help:
                "also serve on a Unix socket at PATH (mode 0660: the owner and\nits group), for local tools that should not use TCP"
        ),
        OptionSpec(
            "--http", value: "N",
            help:
                "also serve HTTP on port N (0 picks a free one and prints it on\nstdout after the others): the live pages at /, /metrics for\nPrometheus, /livez and /readyz, /clients, /events (SSE)"
        ),
        OptionSpec(
            "--https-port", value: "N",
            help:
                "also serve what --http serves over TLS on port N (0 picks a\nfree one and prints it on stdout after --http's), so that Basic\nlogins never cross the network in the clear; needs --tls-cert\nand --tls-key"
        ),
        OptionSpec(
            "--resp-port", value: "N",
            help:
                "also serve RESP on port N from the first byte, with no greeting\n(0 picks a free one and prints it on stdout after the others):\nfor Redis clients that connect before they have a command\n(pools, redis-benchmark, node-redis, redis-cli --pipe); inline\ncommands are taken as Redis takes them"
        ),
        OptionSpec(
            "--http-open", value: "metrics,health,writes",
            help:
                "with --users, serve /metrics and/or the health checks without\na login (for scrapers and probes); everything else asks for\nHTTP Basic with a user of the --users file. writes: without\n--users, take POST /api/VERB writes from any address (by\ndefault only from this machine's)"
        ),
        OptionSpec(
            "--http-host", value: "NAME", repeatable: true,
            help:
                "a name this server is reached by over HTTP (repeatable): a\nrequest whose Host is not localhost, an IP address, the\n--bind address or such a name is refused with 421, so that\nno page of another site reaches it by DNS rebinding"
        ),
        OptionSpec(
            "--ready-lag", value: "N",
            help: "a cluster node more than N revisions behind the store answers\n/readyz with 503 (default 1000)"),
        OptionSpec(
            "--max-connections", value: "N", help: "most clients at once (default 10000); more are told so and closed"),
        OptionSpec(
            "--max-connections-per-ip", value: "N",
            help: "most clients at once from one address (default 1000; 0: only\n--max-connections applies)"),
        OptionSpec(
            "--stall-timeout", value: "SECONDS",
            help:
                "close a connection that makes no progress for this long: no\nrequest since it connected, an incomplete line, output it\ndoes not read, or a MULTI without EXEC (default 60; 0: never)"
        ),
        OptionSpec(
            "--handshake-timeout", value: "SECONDS",
            help:
                "close a TLS connection whose handshake has not finished in\nthis long (default 10; 0: only --stall-timeout applies)"
        ),
        OptionSpec(
            "--idle-timeout", value: "SECONDS",
            help: "close a connection without watches that sends no request for\nthis long (default 0: never)"),
        OptionSpec(
            "--max-partial-input", value: "BYTES",
            help:
                "requests held unrun for all clients together (lines begun,\nrequests waiting behind a SYNC or a write, open transactions);\npast it the largest holders are closed (default 67108864)"
        ),
        OptionSpec("--max-line", value: "BYTES", help: "longest request line (default 65536)"),
        OptionSpec(
            "--output-limit", value: "BYTES",
            help: "most bytes queued for one client before it is dropped as a\nslow consumer (default 8388608)"),
        OptionSpec(
            "--max-unread-output", value: "BYTES",
            help:
                "most bytes queued for all clients together; past it the\nclients that stopped reading are dropped, the most unread\nfirst (default 268435456)"
        ),
        OptionSpec(
            "--io-threads", value: "N",
            help:
                "I/O loop threads (default 2, or 1 when tabulad may use one CPU\nonly, by its affinity or its cgroup's CPU quota: two loops on\none core wait for each other); the start-up line says why"
        ),
        OptionSpec(
            "--busy-poll", value: "MICROSECONDS",
            help:
                "how long a loop or the engine, out of work, polls for more\n(giving its CPU away between looks) before it sleeps, while\nits work comes back sooner than that; 0 sleeps at once\n(default 250, or 0 when tabulad may run on one CPU only)"
        ),
        OptionSpec(
            "--cpu-yield", value: "auto|on|off",
            help:
                "off (default): serve at once; on: while several clients keep a\nloop busy, a loop woken for only one or two requests gives\nthe CPU away once before serving them, so that clients on\nthe same cores send more and are served in bigger batches\n(a lone client never waits), at the cost of a longer tail;\nauto: on while all of a loop's clients are on this machine\n(loopback, Unix socket), off once one is on another machine"
        ),
        OptionSpec(
            "--config", value: "FILE",
            help:
                "read options from FILE first: one per line, named without its\ndashes, then its value (http 8080; memory for a flag); #\ncomments; options on the command line override it"
        ),
        OptionSpec("--log-level", value: "LEVEL", help: "error, warn, info (default) or debug; logs go to stderr"),
        OptionSpec(
            "--log-format", value: "text|logfmt|json",
            help:
                "text (default) for people; logfmt or json (one object per\nline) for log collectors; a line about one connection\ncarries its id as a field (conn)"
        ),
    ],
    epilogue: """
        SIGINT or SIGTERM: stop accepting, answer requests in flight, say "* BYE" to every
        client, close, exit 0. SIGHUP: reload the --users file (a bad file is logged and the
        old one kept); connections of removed users, of users with a new secret, and
        watching connections of users with new grants are closed.

        EXIT STATUS: 0 after a clean shutdown, 1 for a usage error (also a non-loopback --bind
        without --users), 2 when the server cannot start (port in use, unusable data file,
        PostgreSQL unreachable or not a Tabula database, TLS certificate or key).
        """)

func fail(_ message: String, _ status: ExitStatus) -> Never {
    FileHandle.standardError.write(Data("tabulad: \(message)\n".utf8))
    exit(status.rawValue)
}

/// What the command line asks for.
struct Settings {
    var config = ServerConfig()
    var usersPath: String?
    var dataPath = "tabula.sqlite"
    var memory = false
    var postgres: String?
    var syncFull = true
    var history: Int?
    var maxSize: Int?
}

/// The command line with the words of its `--config FILE` (if any) placed before it.
func withConfigFile(_ arguments: [String]) throws(UsageError) -> [String] {
    let given = try commandLine.parse(arguments)
    guard let path = given.string("--config") else { return arguments }
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        throw UsageError("--config \(path): cannot read it (does it exist, and may tabulad read it?)")
    }
    // Where the state is kept is one choice: a store named on the command line replaces
    // the file's, whichever option each names it with.
    let stores: Set<String> = ["--memory", "--data", "--postgres"]
    let except = given.keys.isDisjoint(with: stores) ? given.keys : given.keys.union(stores)
    let words = try ConfigFile.arguments(text, spec: commandLine, file: path, except: except)
    if words.isEmpty
        && !text.split(whereSeparator: \.isNewline).contains(where: {
            !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#")
        })
    {
        FileHandle.standardError.write(
            Data(
                "tabulad: warning: --config \(path) sets no option (it is empty, or only comments); starting on the defaults and the command line\n"
                    .utf8))
    }
    return words + arguments
}

func settings(_ arguments: [String]) throws(UsageError) -> Settings {
    let p = try commandLine.parseOrAnswer(try withConfigFile(arguments), version: ServerConfig.version)
    if let extra = p.positionals.first {
        throw UsageError("unexpected argument '\(extra)'; tabulad takes only options (see tabulad --help)")
    }
    var s = Settings()
    if let v = p.string("--bind") { s.config.bind = v }
    if let v = try p.int("--port", in: 0...65535) { s.config.port = v }
    if let v = p.string("--data") { s.dataPath = v }
    s.config.unixPath = p.string("--unix")
    s.config.tlsPort = try p.int("--tls-port", in: 0...65535)
    s.config.plainPort = !p.has("--no-plain-port")
    s.config.httpPort = try p.int("--http", in: 0...65535)
    s.config.httpsPort = try p.int("--https-port", in: 0...65535)
    for word in (p.string("--http-open") ?? "").split(separator: ",") {
        guard let o = HTTPOpening(rawValue: String(word)) else {
            throw UsageError(
                "--http-open takes metrics, health and writes, comma-separated (metrics,health), not '\(word)'")
        }
        s.config.httpOpen.insert(o)
    }
    s.config.httpHosts = p.strings("--http-host")
    s.config.respPort = try p.int("--resp-port", in: 0...65535)
    if let v = try p.int("--ready-lag", in: 0...Int.max) { s.config.readyLag = UInt64(v) }
    if !s.config.plainPort && s.config.tlsPort == nil && s.config.unixPath == nil {
        throw UsageError("--no-plain-port leaves nothing to serve on: give --tls-port or --unix too")
    }
    s.config.tlsCert = p.string("--tls-cert")
    s.config.tlsKey = p.string("--tls-key")
    if (s.config.tlsPort != nil || s.config.httpsPort != nil) && (s.config.tlsCert == nil || s.config.tlsKey == nil) {
        throw UsageError(
            "\(s.config.tlsPort != nil ? "--tls-port" : "--https-port") needs --tls-cert FILE and --tls-key FILE (make a test pair with: openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -subj /CN=localhost -days 30)"
        )
    }
    s.memory = p.has("--memory")
    s.postgres = p.string("--postgres")
    if s.memory && p.string("--data") != nil {
        throw UsageError("--memory keeps nothing, so --data would be ignored: give one of them")
    }
    if s.postgres != nil && (s.memory || p.string("--data") != nil) {
        throw UsageError("--postgres keeps the state in PostgreSQL: leave out --data and --memory")
    }
    if s.postgres != nil && p.string("--max-size") != nil {
        throw UsageError("--max-size caps an SQLite file; with --postgres, cap the database in PostgreSQL")
    }
    if let v = try p.choice("--sync", ["full", "normal"]) { s.syncFull = v == "full" }
    s.history = try p.int("--history", in: 1...Int.max)
    if let v = try p.int("--history-memory", in: 65_536...Int.max) { s.config.historyBytesInMemory = v }
    s.maxSize = try p.int("--max-size", in: 65536...Int.max)
    if let v = try p.int("--max-connections", in: 1...Int.max) { s.config.maxConnections = v }
    if let v = try p.int("--max-connections-per-ip", in: 0...Int.max) { s.config.maxConnectionsPerAddress = v }
    if let v = try p.int("--stall-timeout", in: 0...86_400) { s.config.stallTimeout = v }
    if let v = try p.int("--idle-timeout", in: 0...31_536_000) { s.config.idleTimeout = v }
    if let v = try p.int("--handshake-timeout", in: 0...86_400) { s.config.handshakeTimeout = v }
    if let v = try p.int("--max-partial-input", in: 65536...Int.max) { s.config.maxPartialInput = v }
    if let v = try p.int("--max-line", in: 16...Int.max) { s.config.maxLine = v }
    if let v = try p.int("--output-limit", in: 1024...Int.max) { s.config.outputLimit = v }
    if let v = try p.int("--max-unread-output", in: 1_048_576...Int.max) { s.config.maxUnreadOutput = v }
    if let v = try p.int("--io-threads", in: 1...64) {
        s.config.ioThreads = v
        s.config.ioThreadsGiven = true
    }
    s.config.allocator = Allocator.describe()
    if let v = try p.int("--busy-poll", in: 0...100_000) { s.config.busyPollMicros = v }
    if let v = try p.choice("--cpu-yield", CPUYield.allCases.map(\.rawValue)), let y = CPUYield(rawValue: v) {
        s.config.cpuYield = y
    }
    if let v = try p.choice("--log-format", LogFormat.allCases.map(\.rawValue)), let f = LogFormat(rawValue: v) {
        s.config.logFormat = f
    }
    if let v = try p.choice("--log-level", ["error", "warn", "info", "debug"]), let l = LogLevel(name: v) {
        s.config.logLevel = l
    }
    s.config.setHistory(s.history, durable: !s.memory)
    if let path = p.string("--users") {
        s.usersPath = path
        s.config.users = try loadUsers(path).get()
    } else if isPublicAddress(s.config.bind) && !p.has("--allow-anyone-on-the-network") {
        throw UsageError(
            "refusing to listen on \(s.config.bind) without --users: anyone who can reach the port could read and change everything. Give --users FILE (make its lines with tabulad passwd), or --bind 127.0.0.1, or --allow-anyone-on-the-network if that is really meant"
        )
    }
    return s
}

if CommandLine.arguments.dropFirst().first == "passwd" { runPasswd(Array(CommandLine.arguments.dropFirst(2))) }

let wanted: Settings
do {
    wanted = try settings(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail(error.message, .usage)
}
var config = wanted.config

// Block SIGINT/SIGTERM/SIGHUP before any thread starts, so that only the signalfd sees them.
let signalFD = tabula_signalfd_server()
guard signalFD >= 0 else { fail("cannot set up signal handling", .unavailable) }

let store: StateStore
do {
    if let conninfo = wanted.postgres {
        store = try PostgresStore(conninfo: conninfo, historyLimit: wanted.history ?? 1_000_000)
    } else {
        store =
            wanted.memory
            ? MemoryStore()
            : try SQLiteStore(
                path: wanted.dataPath, syncFull: wanted.syncFull, historyLimit: wanted.history ?? 1_000_000,
                maxBytes: wanted.maxSize)
    }
} catch {
    fail("\(error)", .unavailable)
}

let server: Server
do {
    server = try Server(config: config, store: store)
} catch {
    fail("\(error)", .unavailable)
}
if config.port == 0 && config.plainPort {
    FileHandle.standardOutput.write(Data("\(server.port)\n".utf8))
}
if config.tlsPort == 0, let tls = server.tlsPort {
    FileHandle.standardOutput.write(Data("\(tls)\n".utf8))
}
if config.httpPort == 0, let http = server.httpPort {
    FileHandle.standardOutput.write(Data("\(http)\n".utf8))
}
if config.httpsPort == 0, let https = server.httpsPort {
    FileHandle.standardOutput.write(Data("\(https)\n".utf8))
}
if config.respPort == 0, let resp = server.respPort {
    FileHandle.standardOutput.write(Data("\(resp)\n".utf8))
}
server.start()

var pfd = pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0)
signals: while true {
    while poll(&pfd, 1, -1) < 0 && errno == EINTR {}
    switch tabula_signalfd_next(signalFD) {
    case SIGHUP:
        guard let path = wanted.usersPath else {
            server.logError("SIGHUP: no --users file to reload")
            continue
        }
        switch loadUsers(path) {
        case .success(let users): _ = server.reloadUsers(users)
        case .failure(let e): server.logError("SIGHUP: \(e.message); the users loaded before are kept")
        }
    case 0: continue
    default: break signals
    }
}
server.stop()
exit(ExitStatus.ok.rawValue)
