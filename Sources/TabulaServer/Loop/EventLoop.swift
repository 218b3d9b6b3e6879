import CLinuxShims
import Glibc
import Synchronization
import TabulaHTTP
import TabulaProtocol

/// One I/O thread: an epoll set with the listening socket, an eventfd for wake-ups and its
/// connections. Reads and decodes lines and answers every request it may answer itself
/// (reads, under the shared read lock; writes too when the store keeps nothing); the rest,
/// and anything a connection sends while it has something at the engine, goes to the engine
/// in order. Writes what comes back with `send` (`sendmsg` over an iovec for several pieces).
///
/// It is made on its own thread and stays there (not Sendable): other threads reach it only
/// through its `LoopHandle`.
final class EventLoop {
    let handle: LoopHandle
    var index: Int { handle.index }
    var inbox: WakeableInbox<LoopMessage> { handle.inbox }
    var clients: Locked<[ClientInfo]> { handle.clients }
    var batchSeconds: Histogram { handle.batchSeconds }
    let epfd: Int32
    /// The listening sockets (loop 0 accepts on them).
    let listeners: [Listening]
    /// The thread that runs TLS handshakes, when a TLS port is served (loop 0 hands it the
    /// sockets it accepts there).
    let handshakes: HandshakeHandle?
    let engine: EngineHandle
    let authenticator: Authenticator
    let executor: RequestExecutor
    let config: ServerConfig
    /// The Hosts HTTP requests may name, made once from `config` (`HostRule`).
    let hostRule: HostRule
    let stats: ServerStats
    /// This loop's own request counts (`LoopCounts`).
    let counts: LoopCounts
    let log: Log

    // Loop-thread state (the `@exclusivity(unchecked)` properties are the hot path's: only
    // this loop's thread touches them, so their run-time checks are left out; Package.swift).
    @exclusivity(unchecked) var conns: [UInt64: Connection] = [:]
    var serial: UInt64 = 0
    var nextLoop = 0
    @exclusivity(unchecked) var dirty: [Connection] = []
    @exclusivity(unchecked) var flushing: [Connection] = []
    /// Dirty connections a turn's write budget did not reach, oldest first (`flushDirty`).
    @exclusivity(unchecked) var carried: [Connection] = []
    @exclusivity(unchecked) var toEngine: [EngineInput] = []
    /// Connections whose held requests may run now (their group was answered, their replay
    /// ended, or their client read its output).
    @exclusivity(unchecked) var ready: [Connection] = []
    /// The buffer the inbox's messages are taken into, kept from turn to turn with its
    /// capacity (`drainInbox`, `WakeableInbox.take(into:)`).
    @exclusivity(unchecked) var inboxBatch: [LoopMessage] = []
    /// Connections with a replay in progress.
    @exclusivity(unchecked) var replaying: [Connection] = []
    /// Replay steps left in this turn, and which replay the next turn starts with.
    @exclusivity(unchecked) var replayBudget = EventLoop.replayStepsPerTurn
    /// Replay steps taken since the budget was last reset (see `ServerStats.replaySteps`).
    @exclusivity(unchecked) var replayStepsThisTurn = 0
    var replayTurn = 0
    /// The history replays read on this loop (memory), and the thread that reads the store
    /// for what memory no longer holds.
    let history: MemoryHistory
    let replayReader: ReplayReader
    @exclusivity(unchecked) var shuttingDown = false
    var saidGoodbye = false
    /// One read's bytes; larger than a TLS record (16 KiB), so that a TLS read never leaves
    /// decrypted bytes inside the session where epoll cannot see them.
    @exclusivity(unchecked) var readBuffer = [UInt8](repeating: 0, count: ReadShare.full)
    /// Readable connections left for the next turn, first in line then: a turn reads at most
    /// `ReadShare.budget` bytes (`EventLoopReading.readOrDefer`).
    @exclusivity(unchecked) var readLater: [Connection] = []
    /// Bytes read this turn.
    @exclusivity(unchecked) var readThisTurn = 0
    @exclusivity(unchecked) var units: RoutedUnits
    /// Replies being encoded for one connection, before they join its output (`deliver`).
    @exclusivity(unchecked) var replies: [UInt8] = []
    @exclusivity(unchecked) var cache = ReplyCache()
    /// A run is under way (`runHere`): nothing may drain the inbox or start another run.
    @exclusivity(unchecked) var inRun = false
    /// Connections whose run published while this loop's inbox held something (or ran an
    /// UNWATCH), its replies parked until what the inbox holds is queued ahead of them
    /// (`settlePublished`).
    @exclusivity(unchecked) var published: [Connection] = []
    /// What a run's write published for this loop's own watchers, handed back to queue at
    /// once (`OwnLoopEvents`); its buffer is kept from run to run.
    @exclusivity(unchecked) var ownEvents: OwnLoopEvents
    /// What a run makes under its lock (answers, events), its storage kept from run to run.
    @exclusivity(unchecked) var runWork: RequestExecutor.LoopRunWork
    /// Publications that must be posted before the parked runs settle (an UNWATCH's).
    @exclusivity(unchecked) var settleAfter: UInt64 = 0
    /// Connections not yet greeted, in the order they came, each with when to greet it (the
    /// monotonic clock in nanoseconds); `ungreetedHead` is the first still waiting.
    @exclusivity(unchecked) var ungreeted: [(conn: Connection, due: UInt64)] = []
    @exclusivity(unchecked) var ungreetedHead = 0
    /// The monotonic clock in nanoseconds, as of this turn.
    @exclusivity(unchecked) var nowNanos: UInt64 = 0
    /// Whether the loop polls before it sleeps (`waitForWork`), which it does only while it
    /// awaits answers: groups handed to the engine or the authenticator not yet answered.
    var idleSpin: IdleSpin
    /// Groups this loop handed to the engine or the authenticator (its connection `awaiting`) whose answer
    /// has not come back: each is answered once, closed connection or not.
    var awaitingAnswers = 0

    /// A wake-up with this many ready sockets or fewer is thin (see `ServerConfig.cpuYield`).
    private static let thinWakeUp: Int32 = 2
    /// Connections active in one window for the loop to count as busy with several clients.
    private static let severalClients = 4
    private static let window: UInt64 = 1_000_000
    private var activeWindow: UInt64 = 1
    /// The monotonic clock in seconds, as of this turn.
    var nowSeconds = 0
    /// When connections were last checked for timeouts.
    var lastSweep = 0
    /// `SharedState.postedRevision` as read before this turn's inbox was drained (`sendProgress`).
    var postedAtTurn: UInt64 = 0
    /// `SharedState.publicationsPosted` as read before this turn's inbox was drained: every
    /// publication before it is queued (`sendSnapshotInStream`).
    var publicationsPostedAtTurn: UInt64 = 0
    /// Event bytes framed as an HTTP chunk once for every stream they go to.
    var sharedChunk = SharedChunk()
    /// The second in which this loop last looked for connections to shed and found none
    /// (it looks again in the next: the bound's cost stays one scan a second).
    var shedFoundNone = -1
    /// The turn (`nowNanos`) in which this loop last found it held under its share of the
    /// unread-output bound: it does not look again in that turn.
    var shedSkippedAt = UInt64.max
    /// Connections closed since memory was last given back to the system.
    var closedSinceTrim = 0
    /// The `/clients` body made this second, while no connection came or went on this loop
    /// (a scraper in a loop then costs one listing a second, not one per request).
    var clientsPage: (second: Int, body: [UInt8])?
    /// This loop's connections from other machines (see `CPUYield.auto`).
    var remoteClients = 0
    private var activeNow = 0
    private var activeBefore = 0
    private var windowEnds: UInt64 = 0
    /// Listening socket k is registered as `listenTokens + k` (connections are 256 and up).
    private static let listenTokens: UInt64 = 2
    private static let wakeToken: UInt64 = 1
    static let pauseAbove = 4096
    /// Reading also pauses once the held requests were read from about this many bytes.
    static let pauseAboveBytes = 1 << 20
    static let resumeBelow = 1024

    init(
        handle: LoopHandle, listeners: [Listening], handshakes: HandshakeHandle?, replayReader: ReplayReader,
        engine: EngineHandle, authenticator: Authenticator, executor: RequestExecutor, config: ServerConfig, log: Log
    ) {
        self.handle = handle
        self.listeners = listeners
        self.handshakes = handshakes
        self.engine = engine
        self.authenticator = authenticator
        self.executor = executor
        self.config = config
        hostRule = HostRule(bind: config.bind, extra: config.httpHosts)
        idleSpin = IdleSpin(limitMicros: config.busyPollMicros)
        stats = handle.stats
        counts = handle.stats.counts(loop: handle.index)
        runWork = RequestExecutor.LoopRunWork(counts: counts)
        ownEvents = OwnLoopEvents(loop: handle.index)
        units = RoutedUnits(durable: executor.durable, stats: handle.stats)
        self.log = log
        history = MemoryHistory(state: executor.state)
        self.replayReader = replayReader
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        nowSeconds = Int(ts.tv_sec)
        lastSweep = nowSeconds
        epfd = tabula_epoll_create()
        _ = tabula_epoll_add(epfd, inbox.fd, tabula_EPOLLIN, EventLoop.wakeToken)
        // Loop 0 accepts and deals connections out round-robin, so the loads stay even.
        if index == 0 {
            for (k, l) in listeners.enumerated() {
                _ = tabula_epoll_add(epfd, l.fd, tabula_EPOLLIN, EventLoop.listenTokens + UInt64(k))
            }
        }
    }

    /// Hands `answers` to `c`'s codec, which writes them to its output: encoded here, on the
    /// connection's own loop, in the format each was made in (an exchange codec takes them as
    /// values). Returns whether the last asked to close, and the replay it began.
    func deliver(_ answers: [Answer], to c: Connection) -> (close: Bool, replay: ReplayPlan?) {
        if let x = c.exchange { return x.deliver(answers, to: c, on: self) }
        return write(answers, to: c)
    }

    /// `answers` encoded in the formats they were made in and queued on `c`'s output, as a
    /// byte codec writes them (the line protocol, RESP, an event stream).
    func write(_ answers: [Answer], to c: Connection) -> (close: Bool, replay: ReplayPlan?) {
        replies.removeAll(keepingCapacity: true)
        let effects = Answer.encode(answers, cache: &cache, into: &replies)
        c.output.append(replies)
        // A big piece becomes the queue's own chunk; the next starts a fresh buffer of the same
        // capacity (no regrowth), unless that capacity is large.
        if replies.capacity > 64 * 1024 { replies = [] }
        return effects
    }

    /// The loop thread's body; returns once shut down and every connection is closed.
    func run() {
        var events = [tabula_epoll_event](repeating: tabula_epoll_event(), count: 256)
        var deadline: ContinuousClock.Instant?
        while true {
            postedAtTurn = executor.state.postedRevision.load(ordering: .acquiring)
            publicationsPostedAtTurn = executor.state.publicationsPosted.load(ordering: .acquiring)
            drainInbox()
            runReady()
            pumpReplays()
            flushDirty()
            shedIfOverBound()
            if shuttingDown {
                handle.nothingForEngine.store(
                    !conns.values.contains { $0.phase.awaits || !$0.held.isEmpty }, ordering: .releasing)
                if conns.isEmpty && saidGoodbye { break }
                if let d = deadline, ContinuousClock.now > d {
                    log.log(.warn, "loop \(index): closing \(conns.count) connections that did not drain in time")
                    for c in Array(conns.values) { closeConnection(c) }
                    break
                }
                if deadline == nil { deadline = ContinuousClock.now + .seconds(3) }
            }
            let (n, slept) = waitForWork(&events)
            rollActivityWindow()
            sweepIfDue()
            if slept {
                if config.cpuYield.applies(remoteClients: remoteClients > 0) && n > 0 && n <= EventLoop.thinWakeUp
                    && busyWithSeveral
                    && !(0..<Int(n)).contains(where: { events[$0].data == EventLoop.wakeToken })
                {
                    // Woken from sleep for a request or two while several clients keep this loop
                    // busy: let whatever waits for this CPU (often those clients) run first. With
                    // clients on the same cores this turns many thin wake-ups into fewer full
                    // ones (what arrives meanwhile is there at the next wait). A lone client is
                    // never made to wait, nor are events from the inbox.
                    sched_yield()
                }
            }
            // Whatever was posted before these sockets became readable goes out before their
            // replies: that is what makes events causal (an event published before a writer's
            // OK is queued ahead of any reply to a request sent after that OK).
            drainInbox()
            shedIfOverBound()
            runReady()
            readThisTurn = 0
            readDeferred()
            if n > 0 {
                for i in 0..<Int(n) {
                    handle(events[i])
                    shedIfOverBound()  // a reply may be a 10 MB page: the bound holds one at a time
                }
            }
            greetDue()  // after the reads: first bytes that came choose the codec themselves
            if n <= 0 { continue }
            engine.submit(toEngine)
            toEngine.removeAll(keepingCapacity: true)
        }
        handle.finished.store(true, ordering: .releasing)
    }

    /// One readiness event: the wake-up eventfd, a listening socket or a connection.
    private func handle(_ ev: tabula_epoll_event) {
        switch ev.data {
        case EventLoop.wakeToken: inbox.clearSignal()
        case EventLoop.listenTokens..<EventLoop.listenTokens + UInt64(listeners.count):
            acceptAll(from: listeners[Int(ev.data - EventLoop.listenTokens)])
        default:
            guard let c = conns[ev.data] else { return }
            if ev.events & (tabula_EPOLLHUP | tabula_EPOLLERR) != 0 && (c.readClosed || c.readPaused) {
                closeConnection(c)  // the peer is gone both ways: nothing more can be delivered
                return
            }
            if ev.events & (tabula_EPOLLIN | tabula_EPOLLHUP | tabula_EPOLLERR) != 0 { readOrDefer(c) }
            if ev.events & tabula_EPOLLOUT != 0, conns[ev.data] != nil {
                if c.tlsWantsWrite { readFrom(c) }  // a TLS handshake waiting to send
                c.socketFull = false
                markDirty(c)
            }
        }
    }

    /// Whether several connections sent requests in the last activity window (a millisecond):
    /// only then can giving the CPU away gather more requests per wake-up.
    private var busyWithSeveral: Bool { activeBefore >= EventLoop.severalClients }

    /// Starts a new activity window when the current one is over (called every turn).
    private func rollActivityWindow() {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let now = UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
        nowSeconds = Int(ts.tv_sec)
        nowNanos = now
        guard now >= windowEnds else { return }
        activeBefore = now < windowEnds + EventLoop.window ? activeNow : 0
        activeNow = 0
        activeWindow += 1
        windowEnds = now + EventLoop.window
    }

    /// Counts `c` as active in this window.
    func noteActive(_ c: Connection) {
        if c.activeWindow != activeWindow {
            c.activeWindow = activeWindow
            activeNow += 1
        }
    }

    /// Runs one request an HTTP exchange made, routed as a decoded one is.
    func run(_ c: Connection, request: Request) { run(c, [units.routed(.request(request))][...]) }
}
