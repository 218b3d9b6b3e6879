import CLinuxShims
import TabulaAccess
import TabulaProtocol

/// When an I/O loop gives the CPU away before a thin wake-up (`--cpu-yield`). Off by
/// default: with the client on another core it only delays, and with the client sharing
/// the cores it triples the P=1 tail for a few percent more throughput.
public enum CPUYield: String, Sendable, CaseIterable {
    /// Only while every client of the loop is on this machine (loopback or a Unix socket):
    /// they may share its cores, where the yield lets them send more first. A client on
    /// another machine gains nothing from it and pays its delay.
    case auto
    case on, off

    /// Whether a loop yields, given whether any of its clients is on another machine.
    func applies(remoteClients: Bool) -> Bool { self == .on || (self == .auto && !remoteClients) }
}

/// What the HTTP port may serve without a login (`--http-open`).
public enum HTTPOpening: String, Sendable, CaseIterable {
    /// `/metrics`, for a Prometheus scraper.
    case metrics
    /// `/livez`, `/readyz`, `/healthz`, for probes and load balancers.
    case health
    /// Without `--users`: `POST /api/VERB` writes from any address, not only this machine's.
    case writes
}

/// Everything `tabulad` can be told on its command line.
public struct ServerConfig: Sendable {
    /// The users (`--users FILE`): with them, a connection must AUTH before anything else
    /// and may do only what its user's role and grants allow. Nil: access control is off.
    public var users: [String: UserEntry]?
    /// Address to listen on.
    public var bind = "127.0.0.1"
    /// Port; 0 picks a free one.
    public var port: Int = 8228
    /// Whether to serve the plain TCP port (`--no-plain-port`: only TLS and/or the Unix
    /// socket).
    public var plainPort = true
    /// A Unix socket to serve on as well (`--unix PATH`), for local tools.
    public var unixPath: String?
    /// A TLS port to serve on as well (`--tls-port N`; 0 picks a free one), with the
    /// certificate chain and key in PEM files.
    public var tlsPort: Int?
    public var tlsCert: String?
    public var tlsKey: String?
    /// An HTTP port to serve on as well (`--http N`; 0 picks a free one): metrics, health,
    /// the connected clients, the live web pages and their event streams.
    public var httpPort: Int?
    /// The same over TLS (`--https-port N`; 0 picks a free one), with the TLS certificate
    /// and key: Basic logins and the pages' data then never cross the network in the clear.
    public var httpsPort: Int?
    /// What HTTP serves without a login when there are users (`--http-open metrics,health`).
    public var httpOpen: Set<HTTPOpening> = []
    /// Names this server answers to over HTTP besides localhost, IP literals and `bind`
    /// (`--http-host NAME`, repeatable): a request naming another Host is refused (421).
    public var httpHosts: [String] = []
    /// A port that speaks RESP from the first byte (`--resp-port N`; 0 picks a free one):
    /// for pooled Redis clients and benchmarks, which may wait before their first command.
    public var respPort: Int?
    /// A cluster node more revisions than this behind the store is not ready (`/readyz`).
    public var readyLag: UInt64 = 1_000
    /// Most clients connected at once.
    public var maxConnections = 10_000
    /// Most clients connected at once from one address (0: no limit of its own).
    public var maxConnectionsPerAddress = 1_000
    /// Seconds a connection may go without progress before it is closed: without a complete
    /// request line since it connected or since it began its current line (slowloris), or
    /// with output it does not read (0: never).
    public var stallTimeout = 60
    /// Seconds a TLS connection may take to finish its handshake (0: only `stallTimeout`):
    /// shorter than the stall timeout, since a connection in handshake can do nothing else.
    public var handshakeTimeout = 10
    /// Seconds a connection with no watch may go without a request before it is closed
    /// (0, the default: never).
    public var idleTimeout = 0
    /// Bytes of requests held unrun for all clients together (`Connection.heldInput`); past
    /// it, the largest holders are closed (`EventLoop.shedHeldInput`).
    public var maxPartialInput = 64 * 1024 * 1024
    /// Longest request line in bytes.
    public var maxLine = 64 * 1024
    /// Most bytes queued for one client before it is dropped as a slow consumer.
    public var outputLimit = 8 * 1024 * 1024
    /// Most bytes queued for all clients together (replies and events not yet read). Past
    /// it, the connections holding unread output are dropped as slow consumers, the slowest
    /// to read what they hold first (`ShedOrder`), until the total is back under seven
    /// eighths of it; a client that reads is never dropped for this.
    public var maxUnreadOutput = 256 * 1024 * 1024
    /// A connection's requests run, and its replay is sent, only while its unread output is
    /// under this: past it the server waits for the client to read (see `outputLimit` for
    /// what only pushed events can pass).
    public var outputPause: Int { min(256 * 1024, outputLimit / 2) }
    /// The CPUs the process may use, read at start (`CPUBudget`): the thread defaults follow.
    public static let budget = CPUBudget.current()
    /// Number of I/O loop threads: two, or one when the process may use one CPU only (its
    /// affinity or its cgroup's quota; two loops sharing a core wait for each other's time
    /// slices: p99 ~4 ms at P=1).
    public var ioThreads = min(2, ServerConfig.budget.cpus)
    /// Whether `--io-threads` chose `ioThreads` (else the CPUs did).
    public var ioThreadsGiven = false
    /// Why there are `ioThreads` loops, for the log, STATS and `/metrics`.
    public var threadChoice: String {
        let n = "\(ioThreads) I/O thread\(ioThreads == 1 ? "" : "s")"
        if ioThreadsGiven {
            return
                "\(n) (--io-threads; \(ServerConfig.budget.cpus) CPU\(ServerConfig.budget.cpus == 1 ? "" : "s") available: \(ServerConfig.budget.source))"
        }
        return
            "\(n) for \(ServerConfig.budget.cpus) CPU\(ServerConfig.budget.cpus == 1 ? "" : "s") (\(ServerConfig.budget.source))"
    }
    /// Microseconds a loop or the engine, out of work, polls for more (giving its CPU away
    /// between looks) before it sleeps, while its idle periods are shorter than this
    /// (`IdleSpin`); 0 sleeps at once. 250, or 0 when the process may run on one CPU only
    /// (a poller there only delays what it waits for).
    public var busyPollMicros = ServerConfig.budget.cpus > 1 ? 250 : 0
    /// Whether a loop woken for only a request or two, while several clients keep it busy,
    /// gives the CPU away once before serving them (see `CPUYield`).
    public var cpuYield = CPUYield.off
    /// Events kept in memory for `WATCH … FROM`.
    public var historyInMemory = 100_000
    /// Bytes of events (their paths and summaries) kept in memory for `WATCH … FROM`, at most.
    public var historyBytesInMemory = 64 << 20
    /// How often a `WATCH … PROGRESS` connection is sent `* SYNCED rev`, at most (seconds).
    public var progressSeconds = 10
    /// Snapshots (`WATCH … SNAPSHOT`) being sent at once, at most: each holds a copy of the
    /// model, which keeps what later writes replace alive until its client has read it.
    public var maxSnapshots = 64
    /// What serves the process's allocations, as the start-up line names it (tabulad links
    /// jemalloc: `Allocator`).
    public var allocator = "the C library's malloc"
    /// Log verbosity.
    public var logLevel = LogLevel.info
    /// Log line format (`--log-format`).
    public var logFormat = LogFormat.text
    /// Version string in the greeting and `--version`.
    public static let version = Release.version

    /// The defaults.
    public init() {}

    /// Applies `--history N` (nil: not given) for a store that keeps a durable history or
    /// not: without one the in-memory history is all there is, so N bounds it; with one, N
    /// bounds the store's and memory keeps the newest of it, up to the default.
    public mutating func setHistory(_ n: Int?, durable: Bool) {
        guard let n else { return }
        historyInMemory = durable ? min(ServerConfig().historyInMemory, n) : n
    }
}
