import TabulaProtocol

/// One client socket, owned by one I/O loop thread.
///
/// Its properties marked `@exclusivity(unchecked)` are touched only by its loop's thread, on
/// every request: their run-time exclusivity checks are left out (see Package.swift).
final class Connection {
    let id: ConnectionID
    let fd: Int32
    @exclusivity(unchecked) var decoder: LineDecoder
    @exclusivity(unchecked) var output = OutputQueue() {
        didSet { meterUnread() }  // no oldValue: the queue is still mutated in place
    }
    /// Current path, filter and format: this loop is the session's only owner (the engine
    /// works on copies and hands back what they became).
    @exclusivity(unchecked) var session = Session()
    /// Where it is in its life (`ConnectionPhase`).
    @exclusivity(unchecked) var phase = ConnectionPhase.open
    /// A run's replies, and what it left to do, while what this loop's inbox held as it
    /// published is queued ahead of them (`EventLoop.settlePublished`; the phase is then
    /// `awaiting`).
    @exclusivity(unchecked) var parked: ParkedRun?
    /// Requests read while a group was at the engine, a replay ran or the output was full:
    /// they run after that, in order.
    @exclusivity(unchecked) var held: [RoutedUnit] = []
    /// About how many bytes the held requests were read from (reads appended to `held`).
    @exclusivity(unchecked) var heldBytes = 0
    /// The line protocol's requests queued since `MULTI` (nil: not in a transaction; a RESP
    /// connection's are its codec's, `RESPExchange.transaction`).
    @exclusivity(unchecked) var transaction: TransactionQueue?
    /// A `WATCH … FROM` replay in progress.
    @exclusivity(unchecked) var replay: Replay?
    /// When (the loop's clock, seconds) its replay or snapshot last sent a step: one that
    /// waits on a client that does not read stops moving (`shedUnreadSnapshots`).
    var replayStepAt = 0
    /// Its next step is at the `ReplayReader` (the store is being read for it).
    var replayAtReader = false
    /// A step the `ReplayReader` read for its replay, taken when the turn's replay budget
    /// allows (so 600 pages read at once are not all encoded in one turn).
    var readerStep: (replay: Replay, step: Replay.Step)?
    /// The replay waits for its client to read what it was sent: not looked at again before
    /// this time (the loop's monotonic nanoseconds).
    var replayWaitsUntil: UInt64 = 0
    /// How long it waited last (doubling while its client does not read; 0 once it reads).
    var replayWait: UInt64 = 0
    /// A replay the history overtook after its reply, for `FROM … SNAPSHOT`: it goes on as a
    /// snapshot once every event of the watch it replaces is queued (`EventLoop.StreamSnapshot`).
    var snapshotDue: EventLoop.StreamSnapshot?
    /// Event bytes pushed during a replay, sent after it; `deferredCount` bytes in all.
    var deferred: [[UInt8]] = []
    var deferredCount = 0 {
        didSet { meterUnread() }
    }
    /// Where its unread bytes are counted for the whole server, and how many are counted.
    private let unread: ServerStats
    private var unreadCounted = 0
    /// Bytes queued for it and not yet written.
    var unreadBytes: Int { output.count + deferredCount }

    private func meterUnread() {
        let now = output.count + deferredCount
        guard now != unreadCounted else { return }
        unread.unreadOutput.wrappingAdd(now - unreadCounted, ordering: .relaxed)
        unreadCounted = now
    }
    /// The peer shut down its sending side: answer what was asked, then close.
    @exclusivity(unchecked) var readClosed = false
    /// Reading is paused: requests are held (too many, or waiting for the client to read).
    @exclusivity(unchecked) var readPaused = false
    /// Readable, and in its loop's `readLater` for the next turn.
    @exclusivity(unchecked) var readDeferred = false
    /// The epoll interest now registered.
    @exclusivity(unchecked) var interest: UInt32 = 0
    /// Queued for a flush at the end of this loop turn.
    @exclusivity(unchecked) var dirty = false
    /// Its socket took no more at the last flush (plain TCP): pushes only queue until epoll
    /// says it is writable again, rather than try a write that cannot go every turn.
    @exclusivity(unchecked) var socketFull = false
    /// The loop's activity window in which this connection last sent something.
    @exclusivity(unchecked) var activeWindow: UInt64 = 0

    /// The client's address.
    let peer: PeerAddress
    /// Open until the loop closes it (others check it before working for it).
    let life = ConnectionLife()
    /// The listener it came from: which codec reads and writes it.
    let transport: Listening.Kind
    /// The codec that pairs its requests and responses itself, chosen by its port (HTTP;
    /// nil: the line protocol or a `RequestCodec`).
    @exclusivity(unchecked) var exchange: (any ExchangeCodec)?
    /// The codec its first bytes chose (RESP), with its state; nil: the line protocol.
    @exclusivity(unchecked) var codec: (any RequestCodec)?
    /// The TLS session on a connection to the TLS port.
    var tls: UnsafeMutableRawPointer?
    /// The TLS session needs the socket writable to go on (a handshake message to send).
    var tlsWantsWrite = false
    /// Its held input (`heldInput`) last counted in `ServerStats.partialInput`.
    @exclusivity(unchecked) var partialCounted = 0
    /// Whether it has completed a request line yet.
    @exclusivity(unchecked) var hasRequested = false
    /// When (the loop's clock, seconds) it last completed a request line, or connected.
    @exclusivity(unchecked) var lastRequest: Int
    /// When it began the incomplete line it has now, if any.
    @exclusivity(unchecked) var partialSince: Int?
    /// When its output was last written, or empty.
    var lastDrained: Int
    /// What its client took of its output lately (the order of shedding).
    var drained = DrainMeter()
    /// When (the loop's clock, seconds) it connected.
    let connectedAt: Int
    /// The last `* SYNCED` a `WATCH … PROGRESS` was sent, and when (`sendProgress`).
    var progressSent: UInt64 = 0
    var progressAt = 0

    /// Bytes of the request it has begun and not finished (a line, or an HTTP request).
    var partialInput: Int { exchange?.partialCount ?? codec?.partialCount ?? decoder.bufferedCount }

    /// The transaction it has open (MULTI without EXEC yet), in whichever codec keeps it.
    var openTransaction: TransactionQueue? { codec?.openTransaction ?? transaction }

    /// Everything the server holds of what it sent and has not run: the request begun, the
    /// requests held behind what they wait for (a SYNC, the engine, a replay), and those an
    /// open transaction queued. Counted against `--max-partial-input` for all clients together.
    var heldInput: Int { partialInput + heldBytes + (openTransaction?.bytes ?? 0) }

    init(
        id: ConnectionID, fd: Int32, peer: PeerAddress, transport: Listening.Kind, maxLine: Int, now: Int,
        stats: ServerStats
    ) {
        self.id = id
        unread = stats
        self.fd = fd
        self.peer = peer
        self.transport = transport
        connectedAt = now
        self.decoder = LineDecoder(maxLine: maxLine)
        lastRequest = now
        lastDrained = now
    }

    /// A closed connection's bytes leave the count.
    deinit { unread.unreadOutput.wrappingSubtract(unreadCounted, ordering: .relaxed) }
}

/// A run's answers held back until what its loop's inbox held as it published (its own
/// events for the loop's watchers behind that) is queued before them, with the units it left.
struct ParkedRun {
    let run: RequestExecutor.LoopRun
    let answers: [Answer]
    let rest: ArraySlice<RoutedUnit>
}
