import TabulaProtocol

/// A snapshot in the stream: a `WATCH prefix FROM rev SNAPSHOT` whose replay the history
/// overtook after its reply goes on as a snapshot, on the same connection. The client is
/// sent `* SNAPSHOT prefix why` at once; the watch is taken away, and once every event
/// published to it is queued (they are of revisions the snapshot holds, and come before its
/// rows), the watch is added again with a snapshot, sent as `WATCH prefix SNAPSHOT` sends
/// one but with no reply: its rows, `* SYNCED rev`, then the live events after `rev`.
extension EventLoop {
    /// What is due for an overtaken replay: the watch to take again with a snapshot, once the
    /// publications issued before its old watch was taken away (`ticket`) are posted.
    struct StreamSnapshot {
        let prefix: String
        let subscribeReply: Bool
        let ticket: UInt64
    }

    /// Whether `r`, overtaken by the history at its cursor, goes on as a snapshot in the stream
    /// (asked `SNAPSHOT`, its reply sent, the history trimmed rather than unreadable, on a
    /// connection of its own: an event stream is closed, and its page loads its copy again).
    func goesOnAsSnapshot(_ c: Connection, _ r: Replay, _ gap: HistoryGap) -> Bool {
        r.acknowledged && r.plan.snapshotAsked && gap.failure == nil && c.exchange == nil
    }

    /// Begins the snapshot in the stream for `c`'s replay `r`: the push that announces it,
    /// ahead of everything the replay held back, and the watch taken away. False (nothing
    /// done) when no snapshot covers the prefix (it is not a list, or the watcher may not list
    /// it): the replay then stops with a goodbye that says how to go on.
    func beginSnapshotInStream(_ c: Connection, _ r: Replay, _ gap: HistoryGap) -> Bool {
        let prefix = r.plan.prefix
        let state = executor.state
        // Under the lock, as UNWATCH: every publication whose audience had the watch has a
        // ticket below this one.
        let ticket: UInt64? = state.reading { lease in
            guard Snapshot.refusal(of: prefix, in: lease.model, viewer: c.session.viewer) == nil else { return nil }
            _ = state.hub.withLock { $0.remove(c.id, prefix) }
            return state.publicationsIssued
        }
        guard let ticket else { return false }
        let why =
            "the history moved past revision \(r.cursor) while it was replayed (the oldest held is now \(gap.oldest))"
        var marker: [UInt8] = []  // (RESP: a message on the watched prefix, as its rows are)
        Codec.watchPush(
            .snapshot(prefix: prefix, reason: why), channel: prefix, format: c.session.format, into: &marker)
        c.output.append(marker)
        c.snapshotDue = StreamSnapshot(prefix: prefix, subscribeReply: r.plan.subscribeReply, ticket: ticket)
        log.log(.info, "connection \(c.id.raw): replay of \(prefix) goes on as a snapshot: \(why)", conn: c.id.raw)
        return true
    }

    /// Whether `c`'s due snapshot may be sent now: every publication before its ticket posted
    /// (else the loop looks again within `replayRecheck`, rather than spin).
    func snapshotMayGo(_ c: Connection) -> Bool {
        guard let due = c.snapshotDue, c.replayWaitsUntil <= nowNanos else { return false }
        return due.ticket <= executor.state.publicationsPosted.load(ordering: .acquiring)
    }

    /// Sends `c`'s due snapshot once it may go: every event of the watch taken away is queued
    /// by now (its publication was posted before this turn drained the inbox). Returns
    /// whether it began (else it waits for a later turn).
    func sendSnapshotInStream(_ c: Connection) -> Bool {
        guard let due = c.snapshotDue, due.ticket <= publicationsPostedAtTurn, c.replayWaitsUntil <= nowNanos else {
            return false
        }
        let state = executor.state
        let e: Execution? = state.reading { lease in
            // A node that must reload first has no committed model to copy yet.
            if state.uncommitted && !state.holdsCommitted { return nil }
            return executor.watch(
                c.id, lease, prefix: due.prefix, from: nil, snapshot: true, tag: nil, session: c.session,
                subscribeReply: due.subscribeReply, inStream: true)
        }
        guard let e else {
            c.replayWaitsUntil = nowNanos + EventLoop.replayRecheck  // (looked at again then)
            return false
        }
        c.snapshotDue = nil
        // What was held back goes first: the old watch's events (of revisions the rows hold,
        // which the client skips) and the other watches'.
        for piece in c.deferred { c.output.append(piece) }
        c.deferred.removeAll()
        c.deferredCount = 0
        markDirty(c)
        guard let plan = e.replay else {
            let refusal = e.outcome.reply.error?.message ?? "no snapshot could be sent"
            c.replay = nil
            log.log(
                .warn, "connection \(c.id.raw): no snapshot in the stream of \(due.prefix): \(refusal)", conn: c.id.raw)
            sayBye(
                c,
                .replayStopped(
                    "the history moved past the replay of \(due.prefix) and no snapshot could be sent instead (\(refusal)); reconnect and WATCH \(due.prefix) SNAPSHOT"
                ))
            return true
        }
        c.replay = Replay(plan)
        c.replayStepAt = nowSeconds
        return true
    }
}
