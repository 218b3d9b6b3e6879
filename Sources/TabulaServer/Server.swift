import CLinuxShims
import Foundation
import Glibc
import TabulaAccess
import TabulaModel
import TabulaStorage

/// A running `tabulad`: the engine thread and the I/O loop threads around one listening socket.
public final class Server: Sendable {
    /// The port actually listened on (useful with port 0).
    public let port: Int
    let engine: EngineHandle
    /// Makes the engine, on the thread that will run it (it never leaves its thread).
    let makeEngine: @Sendable () -> Engine
    let authenticator: Authenticator
    let handshakes: HandshakeHandle?
    /// Makes the handshake thread's worker, on that thread (with a TLS port).
    let makeHandshakes: (@Sendable () -> HandshakeWorker)?
    let replayReader: ReplayReader
    let follower: ClusterFollower?
    let loops: [LoopHandle]
    /// Makes a loop, on the thread that will run it (a loop never leaves its thread).
    let makeLoop: @Sendable (LoopHandle) -> EventLoop
    let listeners: [Listening]
    /// The TLS port actually listened on (with `tlsPort` 0, the one picked), if any.
    public let tlsPort: Int?
    /// The HTTP port actually listened on, if any.
    public let httpPort: Int?
    /// The RESP port taken (`--resp-port`), if any.
    public let respPort: Int?
    /// The HTTPS port taken (`--https-port`), if any.
    public let httpsPort: Int?
    let unixPath: String?
    let log: Log

    /// Loads (or seeds) the model from `store` and opens the socket; `start()` begins serving.
    public init(config: ServerConfig, store: StateStore) throws {
        tabula_ignore_sigpipe()
        log = Log(level: config.logLevel, format: config.logFormat)
        var model: Model
        if let snap = try store.load() {
            model = Model(snapshot: snap)
        } else {
            model = SeedData.model(now: Date().timeIntervalSince1970)
            try store.seed(model.snapshot)
            // Another node of a shared store may have seeded first: take what is stored.
            if store.isShared, let snap = try store.load() { model = Model(snapshot: snap) }
        }
        model.recordsMutations = store.isDurable
        model.eventViews = Server.eventViews(config.users)
        let opened = try Server.openListeners(config)
        let (fds, port, tls) = (opened.listeners, opened.port, opened.tls)
        listeners = fds
        tlsPort = opened.tlsPort
        httpPort = opened.httpPort
        respPort = opened.respPort
        httpsPort = opened.httpsPort
        unixPath = config.unixPath
        self.port = port
        let config = { (asked: ServerConfig) -> ServerConfig in  // INFO reports the port taken, not the 0 asked for
            var c = asked
            if c.plainPort { c.port = port }
            return c
        }(config)
        let stats = ServerStats(loops: config.ioThreads)
        let log = self.log
        let state = SharedState(
            model: model, historyCapacity: config.historyInMemory, historyBytes: config.historyBytesInMemory,
            historyID: store.historyID)
        state.snapshots = SnapshotCount(most: config.maxSnapshots)
        state.eventViews = model.eventViews
        // Known before any thread starts, so the first STATS already reports it.
        state.storedHistoryOldest.store(try store.oldestRevision(), ordering: .relaxed)
        let executor = RequestExecutor(state: state, store: store, stats: stats, durable: store.isDurable)
        let engine = EngineHandle(state: state, executor: executor)
        makeEngine = { Engine(handle: engine, store: store, log: log, busyPollMicros: config.busyPollMicros) }
        let authenticator = Authenticator(
            users: config.users.map(UsersDirectory.init), state: state, stats: stats, log: log)
        let handshakes = tls.map { _ in HandshakeHandle() }
        self.handshakes = handshakes
        if let tls, let handle = handshakes {
            makeHandshakes = {
                HandshakeWorker(
                    handle: handle, context: tls, state: state, stats: stats, log: log, timeout: config.handshakeTimeout
                )
            }
        } else {
            makeHandshakes = nil
        }
        let replayReader = ReplayReader(state: state, store: store)
        self.replayReader = replayReader
        let loops = (0..<max(1, config.ioThreads)).map { LoopHandle(index: $0, stats: stats) }
        // Each loop is made on its own thread when it starts (`start`), from these.
        makeLoop = { handle in
            EventLoop(
                handle: handle, listeners: fds, handshakes: handshakes, replayReader: replayReader, engine: engine,
                authenticator: authenticator, executor: executor, config: config, log: log)
        }
        state.loops = loops
        if let users = config.users { Server.noteUnusualIterations(users, log: log) }
        self.engine = engine
        self.authenticator = authenticator
        follower = store.isShared ? ClusterFollower(store: store, engine: engine, state: state, log: log) : nil
        state.storeHead.store(model.revision, ordering: .relaxed)
        self.loops = loops
        var serving: [String] = config.plainPort ? ["\(config.bind):\(port)"] : []
        for (name, p) in [("TLS", tlsPort), ("HTTP", httpPort), ("HTTPS", httpsPort), ("RESP", respPort)] {
            if let p { serving.append("\(name) \(config.bind):\(p)") }
        }
        if let path = config.unixPath { serving.append(path) }
        log.log(
            .info,
            "tabulad \(ServerConfig.version) listening on \(serving.joined(separator: ", ")), store \(store.describe), revision \(model.revision), history id \(store.historyID), \(config.threadChoice), busy poll \(config.busyPollMicros) µs, \(config.allocator)"
        )
    }

    /// Replaces the users (SIGHUP reloads the users file): connections of removed users, of
    /// users with a new secret, and watching connections of users with new grants are closed
    /// with `* BYE` (and those users' copies from before cannot be resumed); the others act
    /// with their user's new role and grants. False when the server has no users file
    /// (access control cannot be turned on while running).
    public func reloadUsers(_ users: [String: UserEntry]) -> Bool {
        guard let directory = authenticator.users else { return false }
        guard !users.isEmpty else {
            // A file with no users is most likely one cut short while it was rewritten:
            // taking it would close every session and let nobody log in again.
            log.log(
                .error,
                "SIGHUP: the users file holds no users (cut short while being rewritten?); the users loaded before are kept"
            )
            return false
        }
        // A user whose grants change (or who goes) cannot resume a copy from before: recorded
        // before the new users are taken, so that no login with the new grants precedes it.
        let before = directory.all
        let changed = before.values.filter { old in users[old.name].map { $0.grants != old.grants } ?? true }
        let state = authenticator.state
        state.reading { lease in
            let at = lease.model.revision
            state.grantsChanged.withLock { for u in changed { $0[u.name] = max($0[u.name] ?? 0, at) } }
        }
        let generation = directory.replace(users)
        state.writing { lease in
            state.eventViews = Server.eventViews(users)
            lease.changing.eventViews = state.eventViews
        }
        log.log(.info, "users reloaded: \(users.count) users (generation \(generation))")
        Server.noteUnusualIterations(users, log: log)
        for loop in loops { loop.post([.usersReloaded]) }
        return true
    }

    /// The views events place entries in for these users (`EventViews`): their grants.
    static func eventViews(_ users: [String: UserEntry]?) -> EventViews {
        EventViews((users ?? [:]).values.sorted { $0.name < $1.name }.map(\.grants))
    }

    /// Writes `message` to the server's log (its format, its level), for what happens
    /// outside a request: a SIGHUP whose users file cannot be read.
    public func logError(_ message: String) { log.log(.error, message) }

    /// Names in the log the users whose hash has another iteration count than most: a wrong
    /// secret for them costs another time than an unknown name does (rehash them with
    /// tabulad passwd to make every login cost the same).
    static func noteUnusualIterations(_ users: [String: UserEntry], log: Log) {
        let odd = UsersDirectory.unusualIterations(users)
        guard !odd.isEmpty else { return }
        let common = UsersDirectory.commonIterations(users)
        log.log(
            .warn,
            "users \(odd.joined(separator: ", ")) have hashes of another iteration count than the others' \(common): their names can be told from unknown ones by timing; rehash them with tabulad passwd"
        )
    }

    /// The listening sockets `config` asks for, the ports they got, and the TLS settings.
    private struct Opened {
        var listeners: [Listening] = []
        /// The plain port (0: none).
        var port = 0
        var tlsPort: Int?, httpPort: Int?, httpsPort: Int?, respPort: Int?
        var tls: TLSContext?
    }

    private static func openListeners(_ config: ServerConfig) throws -> Opened {
        var o = Opened()
        func open(_ asked: Int?, _ kind: Listening.Kind, _ flag: String) throws -> Int? {
            guard let asked else { return nil }
            let (fd, port) = try Listener.open(host: config.bind, port: asked, flag: flag)
            o.listeners.append(Listening(fd: fd, kind: kind))
            return port
        }
        if config.plainPort { o.port = try open(config.port, .tcp, "--port") ?? 0 }
        if config.tlsPort != nil || config.httpsPort != nil {
            guard let cert = config.tlsCert, let key = config.tlsKey else {
                throw ServerError(
                    "\(config.tlsPort != nil ? "--tls-port" : "--https-port") needs --tls-cert FILE and --tls-key FILE")
            }
            o.tls = try TLSContext(cert: cert, key: key)
        }
        o.tlsPort = try open(config.tlsPort, .tls, "--tls-port")
        if let path = config.unixPath {
            o.listeners.append(Listening(fd: try Listener.openUnix(path: path), kind: .unix))
        }
        o.httpPort = try open(config.httpPort, .http, "--http")
        o.httpsPort = try open(config.httpsPort, .https, "--https-port")
        o.respPort = try open(config.respPort, .resp, "--resp-port")
        guard !o.listeners.isEmpty else {
            throw ServerError("nothing to serve on: give --tls-port or --unix with --no-plain-port")
        }
        return o
    }

    /// Starts the engine and loop threads.
    public func start() {
        let make = makeEngine
        let t = Thread { make().run() }
        t.name = "tabulad-engine"
        t.start()
        let engine = self.engine
        let st = Thread {
            engine.syncWaits.keepDeadlines(
                published: { engine.state.publishedRevision.load(ordering: .acquiring) }, { engine.answerWaiting($0) })
        }
        st.name = "tabulad-sync"
        st.start()
        authenticator.startThreads()
        let rr = replayReader
        let rt = Thread { rr.run() }
        rt.name = "tabulad-replay"
        rt.start()
        if let make = makeHandshakes {
            let ht = Thread { make().run() }
            ht.name = "tabulad-tls"
            ht.start()
        }
        if let f = follower {
            let ft = Thread { f.run() }
            ft.name = "tabulad-follow"
            ft.start()
        }
        for handle in loops {
            let make = makeLoop
            let lt = Thread { make(handle).run() }
            lt.name = "tabulad-io-\(handle.index)"
            lt.start()
        }
    }

    /// Graceful stop: no new connections, requests in flight answered, a goodbye to each
    /// client, then every socket closed. Returns when done (or after a few seconds).
    public func stop() {
        log.log(.info, "shutting down")
        engine.state.stopping.store(true, ordering: .releasing)
        for loop in loops { loop.post([.stopReading]) }
        let deadline = ContinuousClock.now + .seconds(5)
        // The engine stops only once no loop has anything left for it (requests read before
        // the stop, and those held behind a group at the engine, are all answered).
        while loops.contains(where: {
            !$0.readingStopped.load(ordering: .acquiring) || !$0.nothingForEngine.load(ordering: .acquiring)
        }) && ContinuousClock.now < deadline {
            usleep(1000)
        }
        follower?.stopped.store(true, ordering: .releasing)
        engine.submit([.shutdown])
        authenticator.stop()
        handshakes?.stop()
        replayReader.stop()
        while (loops.contains(where: { !$0.finished.load(ordering: .acquiring) })
            || !engine.finished.load(ordering: .acquiring) || !authenticator.finished
            || handshakes.map { !$0.finished.load(ordering: .acquiring) } ?? false
            || !replayReader.finished.load(ordering: .acquiring)) && ContinuousClock.now < deadline
        {
            usleep(5000)
        }
        for l in listeners { close(l.fd) }
        if let unixPath { unlink(unixPath) }
        log.log(.info, "stopped")
        log.stop()
    }
}
