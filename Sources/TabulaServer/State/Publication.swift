import Glibc
import TabulaModel
import TabulaProtocol

/// What one hold of the write lock makes visible to the other threads, in the order it was
/// made: events, each run with the audience it had when it was published, and the loop
/// messages that must follow them (the engine's answers, a goodbye). It is built under the
/// lock, which only looks audiences up; it is encoded and posted after the lock is released
/// (`SharedState.writing`), so the write lock and the hub lock are never held for encoding.
///
/// Holds post their publications in the order they took the lock (a ticket each), and a
/// hold's thread posts its own before `writing` returns. So every watcher gets events in
/// revision order, an answer never precedes the events made before it, and a writer's OK is
/// made only once its change's event is queued for every watcher.
struct Publication {
    enum Step {
        /// Events for one audience, except `origin` (given them inline: `ownEvent`, an
        /// `Answer` encoded after the lock like the reply it precedes).
        case events(Audience, [Event], origin: ConnectionID?)
        /// Messages to loops, by loop (an engine's hold only: `postAfterRelease`).
        case messages([[LoopMessage]])
    }

    var steps: [Step] = []
    var stats: ServerStats?
    /// The revision of its last event, if it has any (`SharedState.postedRevision`).
    var lastRevision: UInt64?

    /// Nothing to post: no step, and no revision to mark posted (a hold that published
    /// events nobody watches still posts, in its turn, to move `postedRevision` on).
    var isEmpty: Bool { steps.isEmpty && lastRevision == nil }
}

extension SharedState {
    /// Publishes `p`, once every hold before it has published its own (`ticket` in order).
    /// What it has for the loop `own` names is handed back in `own` when that loop's inbox
    /// is empty by then (see `OwnLoopEvents`), and posted to it otherwise.
    func post(_ p: Publication, ticket: UInt64, own: inout OwnLoopEvents) {
        var spins = 0
        while publicationsPosted.load(ordering: .acquiring) != ticket {
            spins += 1
            if spins > 64 { sched_yield() }
        }
        defer { publicationsPosted.store(ticket + 1, ordering: .releasing) }
        // Every hold before this one has posted: the loop's inbox holds all of theirs for it.
        // When it holds anything, the run's replies wait for its drain, whatever this hold
        // has for the loop: the writer's own inline event and its OK must not overtake an
        // earlier event queued there for the writer itself.
        let direct = own.loop.map { loops[$0].inbox.isEmpty } == true
        if own.loop != nil && !direct { own.inboxed = true }
        // Reused from post to post (one post at a time: the tickets order them), within
        // `outboxKept` messages a loop.
        if outbox.count != loops.count { outbox = Array(repeating: [], count: loops.count) }
        var delivered = 0
        // Events go to every loop before the messages after them go to any: a writer's OK
        // must not reach its client (on one loop) before its event reaches another loop.
        func flush() {
            for i in outbox.indices where !outbox[i].isEmpty {
                if i == own.loop && direct {
                    // A loop's hold has no messages step, so this flush is its only one and the
                    // loop queued the last run's sends: moved, not copied. Appended otherwise,
                    // so that nothing handed back is ever lost.
                    if own.sends.isEmpty {
                        swap(&own.sends, &outbox[i])
                    } else {
                        own.sends.append(contentsOf: outbox[i])
                    }
                } else {
                    loops[i].post(outbox[i])
                }
                outbox[i].emptyKeepingAtMost(SharedState.outboxKept)
            }
        }
        for step in p.steps {
            switch step {
            case .events(let audience, let events, let origin):
                delivered += queue(events, to: audience, origin: origin)
            case .messages(let byLoop):
                assert(own.loop == nil, "a loop's hold posts no messages")
                flush()
                for i in byLoop.indices where !byLoop[i].isEmpty { loops[i].post(byLoop[i]) }
            }
        }
        if delivered > 0, let stats = p.stats { stats.add(stats.eventsDelivered, delivered) }
        flush()
        // Every event through it is in its loops' inboxes (or handed back for its own loop)
        // now: holds post in ticket order.
        if let last = p.lastRevision { postedRevision.store(last, ordering: .releasing) }
    }

    /// Messages a loop's outbox keeps room for between posts (a larger one is freed).
    static let outboxKept = 256

    /// Encodes `events` for each member of `audience` but `origin` into `outbox`, by loop;
    /// returns how many events it queued. Called by `post` only (it owns `outbox`).
    private func queue(_ events: [Event], to audience: Audience, origin: ConnectionID?) -> Int {
        var run = EventRun(formats: audience.formats)
        for e in events { run.append(e) }
        var delivered = 0
        // A restricted audience's run is one event: a member with a view of its own
        // (grants, FILTER) gets it as that view renders it (`WatcherView.view`), or not
        // at all (`receives`), decided and encoded once per distinct view (nil: not sent).
        var views: [WatcherView: EventRun?] = [:]
        for m in audience.members where m.conn != origin {
            let bytes: [UInt8]
            if let g = m.view {
                let view =
                    views[g]
                    ?? {
                        guard g.receives(events[0]) else { return nil }
                        var r = EventRun(formats: audience.formats)
                        r.append(g.view(events[0]))
                        return r
                    }()
                views[g] = view
                guard var r = view else { continue }
                bytes = r.bytes(for: m.format, channel: m.channel)
                views[g] = r  // keeps the framings it made
            } else {
                bytes = run.bytes(for: m.format, channel: m.channel)
            }
            outbox[m.conn.loop].append(.send(m.conn, bytes))
            delivered += events.count
        }
        return delivered
    }

    /// Queues `events` (those with an audience) for this hold's publication. A run of
    /// consecutive events with the same audience and origin (the common case: everyone
    /// watches one prefix) is one step, encoded once per format present in it (`EventRun`)
    /// and sent to each watcher in one message. Call holding the write lock.
    func queueEvents(_ events: ArraySlice<Event?>, origins: [ConnectionID?], into p: inout Publication) {
        func origin(_ i: Int) -> ConnectionID? { i < origins.count ? origins[i] : nil }
        hub.withLock { hub in
            guard !hub.isEmpty else { return }
            var i = events.startIndex
            while i < events.endIndex {
                guard let e = events[i], let audience = hub.audience(of: e.path, removal: e.isRemoval) else {
                    i += 1
                    continue
                }
                var run = [e]
                var j = i + 1
                // A restricted audience takes one event at a time: its members differ in what they may receive.
                while j < events.endIndex, let next = events[j],
                    !audience.restricted && origin(j) == origin(i)
                        && hub.audience(of: next.path, removal: next.isRemoval) === audience
                {
                    run.append(next)
                    j += 1
                }
                p.steps.append(.events(audience, run, origin: origin(i)))
                i = j
            }
        }
    }
}

/// What a write hold on an I/O loop (a run of the memory store's writes) published for that
/// loop's own watchers. When the loop's inbox is empty as the hold posts (every earlier
/// hold has posted by then, so none of their events waits there), the events are handed
/// back for the loop to queue at once, ahead of the writer's replies: the run completes
/// with no message to itself and nothing to wait for. Otherwise they go through the inbox
/// behind what it holds, and the run's replies wait until it is drained
/// (`EventLoop.settlePublished`), even when the hold had nothing for the loop: what the
/// inbox holds may be an earlier event for the writer itself. Events of later holds reach
/// the inbox only after this hold posted, so they are drained after what it queued: each
/// watcher's order is kept.
struct OwnLoopEvents {
    /// The loop the hold ran on (nil: the engine's hold).
    var loop: Int?
    /// Event bytes for the loop's own watchers, to queue now (`.send` messages).
    var sends: [LoopMessage] = []
    /// The loop's inbox held something as the hold posted (its events for the loop, if any,
    /// went there too): the run's replies wait for its drain.
    var inboxed = false
}

extension [LoopMessage] {
    /// Empties it, keeping its storage for the next use unless it holds room for more than
    /// `most` (freed then, as a loop's reply buffer is: one large fan-out does not keep its
    /// room for ever).
    mutating func emptyKeepingAtMost(_ most: Int) {
        if capacity > most { self = [] } else { removeAll(keepingCapacity: true) }
    }
}
