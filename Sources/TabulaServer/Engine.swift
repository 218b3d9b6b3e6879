import CLinuxShims
import Foundation
import Glibc
import Synchronization
import TabulaModel
import TabulaProtocol
import TabulaStorage

/// The one owner of the model. Runs on its own thread, takes requests from the I/O loops in
/// batches, applies them in order, commits the batch's changes to the store in one
/// transaction (group commit), and only then hands replies and events back to the loops.
/// So no client ever sees a change (reply or event) that a crash could still lose.
final class Engine: @unchecked Sendable {
    struct Inbox {
        var items: [EngineInput] = []
        var sleeping = false
    }

    struct Session {
        var viewer = Viewer()
        var format = WireFormat.text
    }

    private let inbox = Mutex(Inbox())
    private let wakeFD: Int32
    private let store: StateStore
    private let stats: ServerStats
    private let log: Log
    private let config: ServerConfig
    var loops: [EventLoop] = []

    // Engine-thread state.
    private var model: Model
    private var sessions: [ConnectionID: Session] = [:]
    private var hub = WatchHub()
    private var history: ChangeHistory
    private var rng = SplitMix64(seed: UInt64(UInt(bitPattern: time(nil))) &* 0x9E37_79B9)
    private var outbox: [[LoopMessage]] = []
    private var stopped = false
    /// The revision clients may know about (committed).
    let publishedRevision = Atomic<UInt64>(0)

    init(model: Model, store: StateStore, config: ServerConfig, stats: ServerStats, log: Log) {
        self.model = model
        self.store = store
        self.config = config
        self.stats = stats
        self.log = log
        self.history = ChangeHistory(capacity: config.historyInMemory)
        self.wakeFD = tabula_eventfd()
        publishedRevision.store(model.revision, ordering: .relaxed)
    }

    /// Queues inputs from a loop; wakes the engine if it sleeps.
    func submit(_ inputs: [EngineInput]) {
        guard !inputs.isEmpty else { return }
        let wake = inbox.withLock { box -> Bool in
            box.items += inputs
            if box.sleeping {
                box.sleeping = false
                return true
            }
            return false
        }
        if wake { _ = tabula_eventfd_signal(wakeFD) }
    }

    /// The engine thread's body; returns after `.shutdown`.
    func run() {
        outbox = Array(repeating: [], count: loops.count)
        while !stopped {
            let batch = inbox.withLock { box -> [EngineInput] in
                if box.items.isEmpty {
                    box.sleeping = true
                    return []
                }
                let b = box.items
                box.items.removeAll(keepingCapacity: true)
                return b
            }
            if batch.isEmpty {
                var pfd = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
                _ = poll(&pfd, 1, -1)
                _ = tabula_eventfd_drain(wakeFD)
                continue
            }
            process(batch)
        }
        store.close()
        finished.store(true, ordering: .releasing)
    }

    /// Set once the engine has stopped and released the store.
    let finished = Atomic<Bool>(false)

    // MARK: - Batches

    private func process(_ batch: [EngineInput]) {
        let revisionBefore = model.revision
        var mutations: [Mutation] = []
        var events: [Event] = []
        for input in batch {
            switch input {
            case .opened(let c):
                sessions[c] = Session()
                let hello = WireEncoder.encode(.hello(protocolVersion: WireEncoder.protocolVersion, server: "tabulad/\(ServerConfig.version)", rev: model.revision), format: .text)
                emit(c, hello, completes: 1, format: .text)
            case .closed(let c):
                sessions[c] = nil
                hub.remove(c, nil)
            case .failure(let c, let tag, let error):
                guard let s = sessions[c] else { continue }
                emit(c, WireEncoder.encode(Reply(error: error), tag: tag, format: s.format), completes: 1, format: s.format)
            case .request(let c, let r):
                if let (muts, event) = handle(c, r) {
                    mutations += muts
                    events.append(event)
                }
            case .shutdown:
                stopped = true
            }
        }
        if !mutations.isEmpty || !events.isEmpty {
            do {
                try store.commit(CommitBatch(mutations: mutations, events: events, revision: model.revision))
                for e in events { history.append(e) }
            } catch {
                rollBack(batch, to: revisionBefore, error: error)
            }
        }
        publishedRevision.store(model.revision, ordering: .releasing)
        if stopped {
            let byeText = WireEncoder.encode(.bye(reason: "server shutting down"), format: .text)
            let byeJSON = WireEncoder.encode(.bye(reason: "server shutting down"), format: .json)
            for (c, s) in sessions {
                emit(c, s.format == .json ? byeJSON : byeText, completes: 0, format: s.format)
                outbox[c.loop].append(.close(c))
            }
        }
        flushOutbox()
    }

    /// A commit failed: nothing of the batch is stored. Restore the last stored model, answer
    /// the batch's writes with `ERR STORAGE`, and answer its reads again from the restored state.
    private func rollBack(_ batch: [EngineInput], to revision: UInt64, error: Error) {
        log.log(.error, "commit failed, batch rolled back: \(error)")
        outbox = Array(repeating: [], count: loops.count)
        do {
            if let snap = try store.load() { model = Model(snapshot: snap) }
        } catch {
            log.log(.error, "reload after failed commit failed too: \(error)")
        }
        let message = "the change could not be saved (\(error)); nothing was changed, try again later"
        for input in batch {
            switch input {
            case .request(let c, let r) where r.command.isWrite:
                guard let s = sessions[c] else { continue }
                emit(c, WireEncoder.encode(Reply(error: TabulaError(.storage, message)), tag: r.tag, format: s.format), completes: 1, format: s.format)
            case .request(let c, let r):
                _ = handle(c, r)
            case .failure(let c, let tag, let e):
                guard let s = sessions[c] else { continue }
                emit(c, WireEncoder.encode(Reply(error: e), tag: tag, format: s.format), completes: 1, format: s.format)
            case .opened(let c):
                let hello = WireEncoder.encode(.hello(protocolVersion: WireEncoder.protocolVersion, server: "tabulad/\(ServerConfig.version)", rev: model.revision), format: .text)
                emit(c, hello, completes: 1, format: .text)
            case .closed, .shutdown:
                break
            }
        }
    }

    private func emit(_ c: ConnectionID, _ bytes: [UInt8], completes: Int, format: WireFormat) {
        outbox[c.loop].append(.send(c, bytes, completes: completes, format: format))
    }

    private func flushOutbox() {
        for i in outbox.indices where !outbox[i].isEmpty {
            loops[i].post(outbox[i])
            outbox[i].removeAll(keepingCapacity: true)
        }
    }

    // MARK: - Requests

    /// Answers one request; for a change, returns what to store and the event.
    private func handle(_ c: ConnectionID, _ r: Request) -> ([Mutation], Event)? {
        guard var s = sessions[c] else { return nil }
        stats.add(stats.requests, 1)
        var reply: Reply
        var change: ([Mutation], Event)?
        var replay: [Event] = []
        var closeAfter = false
        switch r.command {
        case .ping(let text):
            reply = Reply(message: text ?? "PONG")
        case .quit:
            reply = Reply(message: "bye")
            closeAfter = true
        case .help(let verb):
            reply = Engine.help(verb)
        case .format(let f):
            if let f { s.format = f }
            reply = Reply(message: s.format.rawValue)
        case .stats:
            reply = statsReply()
        case .watch(let prefix, let from):
            (reply, replay) = watch(c, prefix: prefix, from: from, viewer: s.viewer)
        case .unwatch(let prefix):
            var p: String?
            if let prefix { p = ModelPath.join(ModelPath.segments(prefix, cwd: s.viewer.cwd)) }
            let n = hub.remove(c, p)
            reply = p != nil && n == 0 ? Reply(error: TabulaError(.notFound, "not watching \(p ?? ""); WATCH without arguments lists nothing, STATS counts watches")) : Reply(message: "\(n) removed")
        default:
            let filterBefore = s.viewer.filter
            var viewer = Viewer(cwd: s.viewer.cwd, filter: filterBefore)
            let outcome = model.apply(r.command, viewer: &viewer, now: Date().timeIntervalSince1970, rng: &rng)
            s.viewer = viewer
            reply = outcome.reply
            if let e = outcome.event { change = (outcome.mutations, e) }
        }
        sessions[c] = s
        emit(c, WireEncoder.encode(reply, tag: r.tag, format: s.format), completes: 1, format: s.format)
        for e in replay { deliver(.event(e), to: c, format: s.format) }
        if closeAfter {
            outbox[c.loop].append(.close(c))
        }
        if let (_, e) = change { fanOut(e) }
        return change
    }

    private func deliver(_ push: Push, to c: ConnectionID, format: WireFormat) {
        emit(c, WireEncoder.encode(push, format: format), completes: 0, format: format)
        stats.add(stats.eventsDelivered, 1)
    }

    /// Encodes the event once per format and queues the same bytes to every watcher.
    private func fanOut(_ e: Event) {
        let targets = hub.watchers(of: e.path)
        guard !targets.isEmpty else { return }
        var text: [UInt8]?
        var json: [UInt8]?
        for c in targets {
            guard let s = sessions[c] else { continue }
            let bytes: [UInt8]
            if s.format == .json {
                if json == nil { json = WireEncoder.encode(.event(e), format: .json) }
                bytes = json ?? []
            } else {
                if text == nil { text = WireEncoder.encode(.event(e), format: .text) }
                bytes = text ?? []
            }
            emit(c, bytes, completes: 0, format: s.format)
        }
        stats.add(stats.eventsDelivered, targets.count)
    }

    private func watch(_ c: ConnectionID, prefix: String?, from: UInt64?, viewer: Viewer) -> (Reply, [Event]) {
        let p = ModelPath.join(ModelPath.segments(prefix ?? "/", cwd: prefix == nil ? "/" : viewer.cwd))
        let top = ModelPath.segments(p, cwd: "/").first
        if let top, !Model.roots.contains(top) {
            let hint = EditDistance.closest(to: top, in: Model.roots).map { "; did you mean /\($0)?" } ?? "; the top-level lists are /\(Model.roots.joined(separator: ", /"))"
            return (Reply(error: TabulaError(.notFound, "nothing can change under \(p)\(hint)")), [])
        }
        var replay: [Event] = []
        if let from, from < model.revision {
            switch history(after: from) {
            case .success(let events): replay = events.filter { ModelPath.isUnder($0.path, prefix: p) }
            case .failure(let e): return (Reply(error: e), [])
            }
        }
        hub.add(c, p)
        var message = "watching \(p) at rev \(model.revision)"
        if from != nil { message += "; replaying \(replay.count) events" }
        return (Reply(message: message), replay)
    }

    /// Every event after `rev`, from memory, or from the store for older ones.
    private func history(after rev: UInt64) -> Result<[Event], TabulaError> {
        let memOldest = history.oldest ?? model.revision + 1
        if rev + 1 >= memOldest { return .success(history.events(after: rev)) }
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
            return .success(out + history.events(after: cursor))
        } catch {
            return .failure(TabulaError(.storage, "could not read the history: \(error)"))
        }
    }

    private func statsReply() -> Reply {
        let up = ContinuousClock.now - stats.started
        let fields: [(String, Int)] = [
            ("connections", stats.connections.load(ordering: .relaxed)),
            ("connections_total", stats.totalConnections.load(ordering: .relaxed)),
            ("connections_rejected", stats.rejectedConnections.load(ordering: .relaxed)),
            ("watches", hub.count),
            ("revision", Int(model.revision)),
            ("history_oldest", Int(history.oldest ?? model.revision + 1)),
            ("requests", stats.requests.load(ordering: .relaxed)),
            ("events_delivered", stats.eventsDelivered.load(ordering: .relaxed)),
            ("bytes_in", stats.bytesIn.load(ordering: .relaxed)),
            ("bytes_out", stats.bytesOut.load(ordering: .relaxed)),
            ("slow_consumers_dropped", stats.slowConsumersDropped.load(ordering: .relaxed)),
            ("items", model.items.count),
            ("uptime_seconds", Int(up.components.seconds)),
        ]
        return Reply(rows: fields.map { Row(text: "\($0.0): \($0.1)", json: .object([("name", .string($0.0)), ("value", .int(Int64($0.1)))])) } + [Row(text: "store: \(store.describe)", json: .object([("name", .string("store")), ("value", .string(store.describe))]))], message: "tabulad \(ServerConfig.version)")
    }

    static func help(_ verb: String?) -> Reply {
        if let verb {
            guard let v = Verb.named(verb) else {
                let hint = Verb.suggestion(for: verb).map { "; did you mean \($0.rawValue)?" } ?? ""
                return Reply(error: TabulaError(.unknown, "no verb \(verb)\(hint)"))
            }
            return Reply(rows: [Row(text: v.usage, json: .string(v.usage)), Row(text: v.summary, json: .string(v.summary))], message: v.rawValue)
        }
        let rows = Verb.allCases.map { v in
            Row(text: "\(v.usage.padding(toLength: 34, withPad: " ", startingAt: 0)) \(v.summary)", json: .object([("verb", .string(v.rawValue)), ("usage", .string(v.usage)), ("summary", .string(v.summary))]))
        }
        return Reply(rows: rows, message: "\(rows.count) verbs; HELP verb for one; Protocol.md has them all")
    }
}
