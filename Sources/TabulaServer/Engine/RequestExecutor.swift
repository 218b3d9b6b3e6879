import Foundation
import TabulaModel
import TabulaProtocol
import TabulaStorage

/// Runs requests against the shared state. The same code serves the I/O loops (whatever
/// `Dispatcher` routes there) and the engine (the rest).
struct RequestExecutor: Sendable {
    let state: SharedState
    let store: StateStore
    let stats: ServerStats
    /// Whether the store keeps anything (writes then go to the engine; see `Dispatcher`).
    let durable: Bool

    /// On an I/O loop: runs, in order and under one acquisition of the lock they need, the
    /// units `Dispatcher` routes to the loop, up to the first it routes to the engine (or
    /// none when the engine holds state it must reload, or a write meets uncommitted state),
    /// and publishes their events once. Reads see the model as committed.
    /// Leaves the answers as values in `run.answers` (the connection's codec writes them,
    /// after the lock; `run` is the loop's, kept with its storage from run to run) and returns
    /// how many units ran; whether it published while the loop's inbox held something (its
    /// replies then wait for the drain), and the events for the loop's own watchers handed
    /// back, are in `own` (`OwnLoopEvents`).
    func runOnLoop(
        _ units: ArraySlice<RoutedUnit>, conn: ConnectionID, session: inout Session, cache: inout ReplyCache,
        work run: inout LoopRunWork, own: inout OwnLoopEvents
    ) -> LoopRun {
        run.begin()
        var access = VerbTraits.Access.connection
        var end = units.startIndex
        let cap = units.startIndex + RequestExecutor.unitsPerLock
        var stoppedElsewhere = false  // at a unit that runs elsewhere (not at a cap)
        while end < units.endIndex, end < cap {
            guard case .loop(let a) = units.route(at: end) else {
                stoppedElsewhere = true
                break
            }
            access = RequestExecutor.wider(access, a)
            end += 1
        }
        let here = units[units.startIndex..<end]
        // Under the lock only what must be: applying and reading the model. Encoding the
        // replies, and freeing what fell out of the history, happen after it is released.
        switch access {
        case .write:
            state.writing(own: &own) { lease in
                runAll(here, lease, access: access, conn: conn, session: &session, cache: &cache, run: &run)
                state.publish(&run.events, origins: run.origins, stats: stats)
            }
        case .read, .session:
            state.reading { lease in
                runAll(here, lease, access: access, conn: conn, session: &session, cache: &cache, run: &run)
            }
        case .connection: runAll(here, nil, access: access, conn: conn, session: &session, cache: &cache, run: &run)
        }
        // What fell out of the history, freed outside the lock (only a write's: an empty
        // `removeAll(keepingCapacity:)` costs about 70 instructions).
        if !run.events.isEmpty { run.events.removeAll(keepingCapacity: true) }
        if !run.origins.isEmpty { run.origins.removeAll(keepingCapacity: true) }
        // The engine takes over at the first unit routed there, or at once when the run was
        // held back; a run cut only by a cap goes on here after the lock is released.
        return LoopRun(
            answered: run.answered,
            toEngine: run.heldBack || (run.answered == here.count && stoppedElsewhere))
    }

    /// What a loop's run of units produced under its lock. Each loop keeps one, its arrays'
    /// storage reused from run to run (`begin`), with the loop's own request counts.
    struct LoopRunWork {
        /// The loop's request counts (`LoopCounts`: written by its thread alone).
        let counts: LoopCounts
        var answers: [Answer] = []
        var events: [Event?] = []
        var origins: [ConnectionID?] = []
        /// A write met uncommitted state or a write on a copy, or the state must be reloaded
        /// first: nothing ran.
        var heldBack = false
        /// Units answered: not `answers.count`, since a watcher's own event is an answer too.
        var answered = 0

        /// Starts a new run: the loop emptied its arrays after the last one (keeping their
        /// storage).
        mutating func begin() {
            assert(answers.isEmpty && events.isEmpty && origins.isEmpty, "a run's arrays not emptied")
            heldBack = false
            answered = 0
        }
    }

    /// Runs `here` under the lock `access` needs (held by the caller, who lends the model:
    /// none for requests that touch only their connection), into `run`. Its state is passed
    /// in, not captured, so that its accesses are checked when compiled.
    private func runAll(
        _ here: ArraySlice<RoutedUnit>, _ lease: ModelLease?, access: VerbTraits.Access, conn: ConnectionID,
        session: inout Session,
        cache: inout ReplyCache, run: inout LoopRunWork
    ) {
        // Reads go on from the committed model while the engine's turn is uncommitted; only a
        // node that holds no such copy (it must reload first) sends them to the engine.
        if (access == .write && (state.uncommitted || state.writesOnEngine))
            || (access != .connection && state.uncommitted && !state.holdsCommitted)
        {
            run.heldBack = true
            return
        }
        var rows = 0
        // Read in place: an element copied out of the slice is a retain and a release of each
        // of its parts, per request.
        here.withUnsafeBufferPointer { here in
            for i in here.indices {
                // A watch added after a change of this run would be sent that change's event,
                // published when the run ends: it waits for the next run.
                if !run.events.isEmpty, here[i].server.readsPublished { return }
                run.answered += 1
                if answer(
                    here[i].unit, lease, conn: conn, session: &session, cache: &cache, counts: run.counts,
                    into: &run.answers, events: &run.events, rows: &rows)
                {
                    return
                }
                while run.origins.count < run.events.count { run.origins.append(conn) }
                if rows >= RequestExecutor.rowsPerLock { return }
            }
        }
    }

    /// At most this many requests run under one acquisition of the lock on a loop, so that a
    /// pipelined flood holds the others up for a bounded time (the rest runs after a release).
    static let unitsPerLock = 128
    /// Nor more than one full page of rows (`LIMIT` at most 10,000): what one lock hold
    /// produces stays bounded when every request is a large read.
    static let rowsPerLock = 10_000
    /// What a cached reply counts as: a row for every this many bytes of it (10,000 rows of
    /// 64 bytes, 640 KB, are one run's worth whether built or copied).
    static let bytesPerRow = 64

    /// What `runOnLoop` did: how many units it answered (their answers are in the loop's
    /// `LoopRunWork`), and whether the next must go to the engine (rather than run here
    /// after a release).
    struct LoopRun {
        let answered: Int
        let toEngine: Bool
    }

    /// Answers one unit on a loop: refused, from the cache, or run. True when nothing may run
    /// after it here: it closes, or starts a replay.
    private func answer(
        _ u: LineUnit, _ lease: ModelLease?, conn: ConnectionID, session: inout Session, cache: inout ReplyCache,
        counts: LoopCounts, into answers: inout [Answer], events: inout [Event?], rows: inout Int
    ) -> Bool {
        guard case .request(let r) = u else { return answerCodecUnit(u, conn: conn, session: &session, into: &answers) }
        var key: ReplyCache.Key?
        // Subscribed: refused, never cached. A current path that another client removed
        // is moved by the read, with a notice: neither a cached reply nor one to cache (a
        // hit would say "you are now at …" without moving the session).
        // A cacheable request is a read: it runs under a lock, which lent the model.
        if r.tag == nil && r.traits.cacheable && !session.subscribed && !lease!.model.mustSettle(session.viewer) {
            let k = ReplyCache.key(r, session)
            // A hit proves that this request passed `Dispatcher.refusal` for this user (and
            // load of the users file), current path and revision: entries are made only
            // for requests that passed, and keyed by all of that.
            if let hit = cache.lookup(k, revision: lease!.model.revision) {
                counts.ran(r.command.verb)
                answers.append(.bytes(hit))
                // A cached reply counts toward the run's bound like the one it copies:
                // its rows, judged by its size (a row is at least a few bytes).
                rows += hit.count / RequestExecutor.bytesPerRow
                return false
            }
            key = k
        }
        if let refusal = Dispatcher.refusal(r, session: session, lease: lease) {
            counts.ran(r.command.verb)
            answers.append(refused(refusal, tag: r.tag, format: session.format))
            return false
        }
        var e = execute(r, lease, conn: conn, session: &session, counts: counts)
        if let ev = e.outcome.event.take() {
            if let own = state.ownEvent(ev, for: conn, stats: stats) { answers.append(own) }
            events.append(consume ev)  // moved: an event copied is four retains and releases
        }
        rows += e.outcome.reply.rows.count
        // Only a cacheable request (a read, run under the lock) needs the revision: a PING,
        // run under no lock, must not touch the model while another loop writes to it.
        let stops = e.close || e.replay != nil
        answers.append(
            .run(
                consume e, tag: r.tag, format: session.format, cacheKey: key,
                revision: key == nil ? 0 : lease!.model.revision))
        return stops
    }

    /// A unit its codec made (a failure, its own reply or value), answered as it stands.
    private func answerCodecUnit(
        _ u: LineUnit, conn: ConnectionID, session: inout Session, into answers: inout [Answer]
    ) -> Bool {
        switch u {
        case .request:
            return false  // answered by `answer`
        case .failure(let tag, let error):
            answers.append(refused(error, tag: tag, format: session.format))
            return false
        case .answer(let bytes, let format, let close):
            if let format { switchFormat(conn, to: format, session: &session) }
            answers.append(.bytes(bytes, close: close))
            return close
        case .value(let v):
            answers.append(.bytes(v.encoded(resp3: session.format == .resp3), close: false))
            return false
        case .reply(let reply, let tag):
            answers.append(.reply(reply, tag: tag, format: session.format))
            return false
        case .codecLogin:  // routed to the authenticator, never run here
            answers.append(
                refused(
                    TabulaError(.invalid, "HELLO with AUTH is answered by the authenticator"), tag: nil,
                    format: session.format))
            return false
        case .transaction(_, let tag):  // routed to the engine, never run here
            answers.append(
                refused(TabulaError(.invalid, "EXEC is run by the engine"), tag: tag, format: session.format))
            return false
        }
    }

    static func wider(_ a: VerbTraits.Access, _ b: VerbTraits.Access) -> VerbTraits.Access {
        func rank(_ x: VerbTraits.Access) -> Int {
            switch x {
            case .connection: return 0
            case .session: return 1
            case .read: return 2
            case .write: return 3
            }
        }
        return rank(a) >= rank(b) ? a : b
    }

    /// Runs one request. The caller holds the lock the command needs, which lent `lease`
    /// (the engine holds the write lock for its whole batch; nil for a request that touches
    /// only its connection).
    /// Counted in `counts`, the running thread's own (a loop's, or the engine's).
    func execute(
        _ r: Request, _ lease: ModelLease?, conn c: ConnectionID, session s: inout Session, counts: LoopCounts
    ) -> Execution {
        counts.ran(r.command.verb)
        var e = perform(r, lease, conn: c, session: &s)
        Codec.settle(&e, of: r.command, session: &s)
        if let error = e.outcome.reply.error { stats.failed(error.code) }
        return e
    }

    private func perform(_ r: Request, _ lease: ModelLease?, conn c: ConnectionID, session s: inout Session)
        -> Execution
    {
        switch r.command {
        case .ping(let text):
            return Execution(Reply(message: text ?? "PONG"))
        case .quit:
            var e = Execution(Reply(message: "bye"))
            e.close = true
            return e
        case .help(let verb):
            return Execution(ServerReplies.help(verb))
        case .format(let f):
            if let f { switchFormat(c, to: WireFormat(f), session: &s) }
            return Execution(Reply(message: s.format.rawValue))
        case .multi, .exec, .discard:  // taken by the connection's codec (`TransactionQueue`), never run here
            return Execution(
                Reply(
                    error: TabulaError(
                        .invalid,
                        "\(r.command.verb.rawValue) begins, runs or drops a connection's transaction; over HTTP each request stands alone"
                    )))
        case .whoami:
            guard let u = s.user else {
                return Execution(Reply(message: "anonymous admin all paths (the server has no users file)"))
            }
            return Execution(Reply(message: u.description))
        case .auth:
            // routed there, never run here
            return Execution(Reply(error: TabulaError(.invalid, "AUTH is answered by the authenticator")))
        case .stats:
            return Execution(
                ServerReplies.stats(
                    state: state, model: lease!.model, stats: stats, store: store,
                    historyOldest: retainedOldest(lease!)))
        case .clients:
            return Execution(ServerReplies.clients(state.loops.flatMap { $0.clients.withLock { $0 } }))
        case .watch(let prefix, let from, let snapshot, let progress):
            let e = watch(
                c, lease!, prefix: prefix, from: from, snapshot: snapshot, tag: r.tag, session: s,
                subscribeReply: r.subscribeReply || s.format == .resp2)
            if progress && e.outcome.reply.error == nil { s.progress = true }
            return e
        case .unwatch(let prefix):
            return unwatch(
                c, lease!, prefix: prefix, answeredAsRedis: r.subscribeReply || s.format == .resp2, session: &s)
        default:
            // The lists' verbs: reads under the read lock, writes under the write lock.
            if let reply = lease!.model.read(r.command, viewer: &s.viewer) {
                if case .filter(_?) = r.command, reply.error == nil { follow(c, filterOf: s.viewer) }
                return Execution(reply)
            }
            return Execution(
                lease!.changing.applyUnread(
                    r.command, ifRev: r.ifRev, viewer: &s.viewer, now: Date().timeIntervalSince1970, rng: &state.rng))
        }
    }

    /// `c`'s events count in `viewer`'s view (its FILTER changed) from the next one.
    func follow(_ c: ConnectionID, filterOf viewer: Viewer) {
        let view = WatcherView(viewer)
        state.hub.withLock { $0.setView(c, view) }
    }

    /// Replies and events to `c` are written in `f` from now on.
    func switchFormat(_ c: ConnectionID, to f: WireFormat, session s: inout Session) {
        s.format = f
        state.hub.withLock { $0.setFormat(c, f) }
    }

    /// An error answer, counted by its code (`/metrics`), encoded later like any reply: every
    /// error a request is answered with without running goes through here.
    @inline(never)  // the rare path: kept out of the request path's code
    func refused(_ error: TabulaError, tag: String?, format: WireFormat) -> Answer {
        stats.failed(error.code)
        return .reply(Reply(error: error), tag: tag, format: format)
    }

    /// The reply, encoded for the connection.
    static func encode(_ e: Execution, tag: String?, format: WireFormat) -> [UInt8] {
        var out: [UInt8] = []
        encode(e, tag: tag, format: format, into: &out)
        return out
    }

    /// Appends the reply to `out` (a replay's reply waits for its count: see `Replay`).
    static func encode(_ e: Execution, tag: String?, format: WireFormat, into out: inout [UInt8]) {
        guard e.replay == nil else { return }
        Codec.reply(e.outcome.reply, tag: tag, format: format, into: &out)
    }
}
