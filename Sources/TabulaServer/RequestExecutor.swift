import Foundation
import TabulaModel
import TabulaProtocol
import TabulaStorage

/// One decoded line: a request, or what was wrong with it.
enum LineUnit: Sendable {
    case request(Request)
    case failure(tag: String?, TabulaError)
}

/// What running one request produced.
struct Execution {
    /// The reply.
    var reply: Reply
    /// Events to push to the requester right after its reply (`WATCH … FROM`).
    var replay: [Event] = []
    /// The change made, if any (not yet published).
    var event: Event?
    /// What the store must write for that change.
    var mutations: [Mutation] = []
    /// Close the connection after the reply (`QUIT`).
    var close = false
    /// This request needs the engine thread (it reads the store); nothing was done.
    var needsEngine = false

    init(_ reply: Reply) { self.reply = reply }
    static let forward: Execution = {
        var e = Execution(Reply())
        e.needsEngine = true
        return e
    }()
}

/// Runs requests against the shared state. The same code serves the I/O loops (reads, and
/// writes when nothing needs to reach a disk) and the engine (durable writes).
struct RequestExecutor: Sendable {
    let state: SharedState
    let store: StateStore
    let stats: ServerStats
    let config: ServerConfig
    /// Whether writes may be applied on an I/O thread (the store keeps nothing).
    let inlineWrites: Bool

    /// How much of the shared state a command needs.
    enum Access { case none, read, write }

    static func access(_ c: Command) -> Access {
        switch c {
        case .ping, .help, .quit, .format: return .none
        case _ where c.isWrite: return .write
        default: return .read
        }
    }

    /// On an I/O loop: runs as many of `units` (in order) as may run here, under one
    /// acquisition of the lock they need, and publishes their events once. Appends the
    /// encoded answers to `out` and returns how many ran, and whether the last asked to close;
    /// the first one not run, and all after it, must go to the engine (a durable write,
    /// uncommitted state, old history). `beforeReplies` runs once the lock is released and
    /// before anything is appended (the loop queues events just published there).
    func runOnLoop(_ units: ArraySlice<LineUnit>, conn: ConnectionID, session: inout Session, cache: inout ReplyCache, into out: inout [UInt8], beforeReplies: (_ published: Bool) -> Void) -> (answered: Int, close: Bool) {
        var needsWrite = false
        var needsRead = false
        for u in units {
            guard case .request(let r) = u else { continue }
            switch RequestExecutor.access(r.command) {
            case .none: break
            case .read: needsRead = true
            case .write:
                if inlineWrites { needsWrite = true } else { needsRead = true }
            }
            if !inlineWrites && RequestExecutor.access(r.command) == .write { break }
        }
        // Under the lock only what must be: applying and reading the model. Encoding the
        // replies, and freeing what fell out of the history, happen after it is released.
        enum Answer {
            case bytes([UInt8])
            case run(Execution, tag: String?, format: WireFormat, cacheKey: ReplyCache.Key?, revision: UInt64)
        }
        var answers: [Answer] = []
        answers.reserveCapacity(units.count)
        var events: [Event?] = []
        func runAll() {
            if (needsRead || needsWrite) && state.uncommitted { return }
            for u in units {
                switch u {
                case .failure(let tag, let error):
                    answers.append(.bytes(WireEncoder.encode(Reply(error: error), tag: tag, format: session.format)))
                case .request(let r):
                    if !inlineWrites && r.command.isWrite { return }
                    var key: ReplyCache.Key?
                    if r.tag == nil && ReplyCache.isCacheable(r.command) {
                        let k = ReplyCache.key(r.command, session)
                        if let hit = cache.lookup(k, revision: state.model.revision) {
                            stats.add(stats.requests, 1)
                            answers.append(.bytes(hit))
                            continue
                        }
                        key = k
                    }
                    var s = session
                    var e = execute(r, conn: conn, session: &s, onEngine: false)
                    if e.needsEngine { return }
                    session = s
                    if case .some = e.event { events.append(e.event.take()) }
                    let close = e.close
                    answers.append(.run(e, tag: r.tag, format: session.format, cacheKey: key, revision: state.model.revision))
                    if close { return }
                }
            }
        }
        if needsWrite {
            state.writing {
                runAll()
                state.publish(&events, stats: stats)
            }
        } else if needsRead {
            state.reading { runAll() }
        } else {
            runAll()
        }
        beforeReplies(!events.isEmpty)
        events.removeAll()  // what fell out of the history, freed outside the lock
        var close = false
        for a in answers {
            switch a {
            case .bytes(let b): out.append(contentsOf: b)
            case .run(let e, let tag, let format, let key, let revision):
                if let key {
                    let bytes = RequestExecutor.encode(e, tag: tag, format: format)
                    cache.store(key, revision: revision, bytes: bytes)
                    out.append(contentsOf: bytes)
                } else {
                    RequestExecutor.encode(e, tag: tag, format: format, into: &out)
                }
                close = e.close
            }
        }
        return (answers.count, close)
    }

    /// Runs one request. The caller holds the lock the command needs (the engine holds the
    /// write lock for its whole batch).
    func execute(_ r: Request, conn c: ConnectionID, session s: inout Session, onEngine: Bool) -> Execution {
        stats.add(stats.requests, 1)
        switch r.command {
        case .ping(let text):
            return Execution(Reply(message: text ?? "PONG"))
        case .quit:
            var e = Execution(Reply(message: "bye"))
            e.close = true
            return e
        case .help(let verb):
            return Execution(RequestExecutor.help(verb))
        case .format(let f):
            if let f {
                s.format = f
                state.hub.withLock { $0.setFormat(c, f) }
            }
            return Execution(Reply(message: s.format.rawValue))
        case .stats:
            return Execution(statsReply())
        case .watch(let prefix, let from):
            return watch(c, prefix: prefix, from: from, session: s, onEngine: onEngine)
        case .unwatch(let prefix):
            var p: String?
            if let prefix { p = ModelPath.join(ModelPath.segments(prefix, cwd: s.viewer.cwd)) }
            let n = state.hub.withLock { $0.remove(c, p) }
            if let p, n == 0 { return Execution(Reply(error: TabulaError(.notFound, "not watching \(p)"))) }
            return Execution(Reply(message: "\(n) removed"))
        default:
            if let reply = state.model.read(r.command, viewer: &s.viewer) { return Execution(reply) }
            var viewer = s.viewer
            let outcome = state.model.apply(r.command, viewer: &viewer, now: Date().timeIntervalSince1970, rng: &state.rng)
            s.viewer = viewer
            var e = Execution(outcome.reply)
            e.event = outcome.event
            e.mutations = outcome.mutations
            return e
        }
    }

    private func watch(_ c: ConnectionID, prefix: String?, from: UInt64?, session: Session, onEngine: Bool) -> Execution {
        let p = ModelPath.join(ModelPath.segments(prefix ?? "/", cwd: prefix == nil ? "/" : session.viewer.cwd))
        if let top = ModelPath.segments(p, cwd: "/").first, !Model.roots.contains(top) {
            let hint = EditDistance.closest(to: top, in: Model.roots).map { "; did you mean /\($0)?" } ?? "; the top-level lists are /\(Model.roots.joined(separator: ", /"))"
            return Execution(Reply(error: TabulaError(.notFound, "nothing can change under \(p)\(hint)")))
        }
        let revision = state.model.revision
        if let from, from > revision {
            return Execution(Reply(error: TabulaError(.expired, "revision \(from) is newer than this server's history, which is at \(revision) (history id \(state.historyID)); the server started a new history or is another one, so nothing can be resumed: LS to resync, then WATCH without FROM")))
        }
        var replay: [Event] = []
        if let from, from < revision {
            let memOldest = state.history.oldest ?? revision + 1
            if from + 1 >= memOldest {
                replay = state.history.events(after: from)
            } else {
                guard onEngine else { return .forward }  // older history is in the store: the engine reads it
                switch storedHistory(after: from, memOldest: memOldest) {
                case .success(let events): replay = events
                case .failure(let e): return Execution(Reply(error: e))
                }
            }
            replay = replay.filter { ModelPath.isUnder($0.path, prefix: p) }
        }
        state.hub.withLock { $0.add(c, p, format: session.format) }
        var e = Execution(Reply(message: WatchAck(prefix: p, rev: revision, replaying: from == nil ? nil : replay.count).message))
        e.replay = replay
        return e
    }

    /// Events after `rev` from the store, then from memory (engine thread only).
    private func storedHistory(after rev: UInt64, memOldest: UInt64) -> Result<[Event], TabulaError> {
        do {
            let storeOldest = try store.oldestRevision()
            guard storeOldest > 0, rev + 1 >= storeOldest else {
                let oldest = storeOldest > 0 ? min(storeOldest, memOldest) : memOldest
                return .failure(TabulaError(.expired, "revision \(rev) is older than the history kept; the oldest revision held is \(oldest), so FROM must be at least \(oldest - 1); LS to resync, then WATCH without FROM"))
            }
            var out: [Event] = []
            var cursor = rev
            while cursor + 1 < memOldest {
                let page = try store.events(after: cursor, limit: 10_000).filter { $0.rev < memOldest }
                guard let last = page.last else { break }
                out += page
                cursor = last.rev
            }
            return .success(out + state.history.events(after: cursor))
        } catch {
            return .failure(TabulaError(.storage, "could not read the history: \(error)"))
        }
    }

    /// The oldest revision `WATCH … FROM` can still replay: from disk or from memory.
    private func historyOldest() -> UInt64 {
        let memory = state.history.oldest ?? state.model.revision + 1
        let stored = state.storedHistoryOldest.load(ordering: .relaxed)
        return stored > 0 ? min(stored, memory) : memory
    }

    private func statsReply() -> Reply {
        let up = ContinuousClock.now - stats.started
        let watches = state.hub.withLock { $0.count }
        let fields: [(String, Int)] = [
            ("connections", stats.connections.load(ordering: .relaxed)),
            ("connections_total", stats.totalConnections.load(ordering: .relaxed)),
            ("connections_rejected", stats.rejectedConnections.load(ordering: .relaxed)),
            ("watches", watches),
            ("revision", Int(state.model.revision)),
            ("history_oldest", Int(historyOldest())),
            ("requests", stats.requests.load(ordering: .relaxed)),
            ("events_delivered", stats.eventsDelivered.load(ordering: .relaxed)),
            ("bytes_in", stats.bytesIn.load(ordering: .relaxed)),
            ("bytes_out", stats.bytesOut.load(ordering: .relaxed)),
            ("slow_consumers_dropped", stats.slowConsumersDropped.load(ordering: .relaxed)),
            ("items", state.model[ItemsList.self].items.count),
            ("uptime_seconds", Int(up.components.seconds)),
        ]
        let rows = fields.map { Row(text: "\($0.0): \($0.1)", json: .object([("name", .string($0.0)), ("value", .int(Int64($0.1)))])) }
        return Reply(rows: rows + [Row(text: "store: \(store.describe)", json: .object([("name", .string("store")), ("value", .string(store.describe))]))], message: "tabulad \(ServerConfig.version)")
    }

    static func help(_ verb: String?) -> Reply {
        if let verb {
            guard let v = Verb.named(verb) else {
                let hint = Verb.suggestion(for: verb).map { "; did you mean \($0.rawValue)?" } ?? ""
                return Reply(error: TabulaError(.unknown, "no verb \(verb)\(hint)"))
            }
            return Reply(rows: [
                Row(text: v.usage, json: .object([("field", .string("usage")), ("value", .string(v.usage))])),
                Row(text: v.summary, json: .object([("field", .string("summary")), ("value", .string(v.summary))])),
            ], message: v.rawValue)
        }
        let rows = Verb.allCases.map { v in
            Row(text: "\(v.usage.padding(toLength: 34, withPad: " ", startingAt: 0)) \(v.summary)", json: .object([("verb", .string(v.rawValue)), ("usage", .string(v.usage)), ("summary", .string(v.summary))]))
        }
        return Reply(rows: rows, message: "\(rows.count) verbs; HELP verb for one; Protocol.md has them all")
    }

    /// The reply and any replayed events, encoded for the connection.
    static func encode(_ e: Execution, tag: String?, format: WireFormat) -> [UInt8] {
        var out: [UInt8] = []
        encode(e, tag: tag, format: format, into: &out)
        return out
    }

    /// Appends the reply and any replayed events to `out`.
    static func encode(_ e: Execution, tag: String?, format: WireFormat, into out: inout [UInt8]) {
        WireEncoder.encode(e.reply, tag: tag, format: format, into: &out)
        for ev in e.replay { WireEncoder.encode(.event(ev), format: format, into: &out) }
    }
}
