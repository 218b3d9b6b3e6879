import TabulaModel
import TabulaProtocol

/// `WATCH`: registering a watch, and for `FROM` the plan of its replay (which the connection's
/// loop then counts and streams as the client reads; see `Replay`).
extension RequestExecutor {
    func watch(
        _ c: ConnectionID, _ lease: ModelLease, prefix: String?, from: UInt64?, snapshot: Bool = false, tag: String?,
        session: Session,
        subscribeReply: Bool = false, inStream: Bool = false
    ) -> Execution {
        let typed = ModelPath.join(ModelPath.segments(prefix ?? "/", cwd: prefix == nil ? "/" : session.viewer.cwd))
        // Watched as the model spells it (`/ITEMS/cheap-items/7` is `/items/7`): events carry
        // that spelling, and live delivery and replays match it byte for byte.
        let p = lease.model.canonicalPath(typed, viewer: session.viewer)
        if let why = RequestExecutor.unwatchable(p, viewer: session.viewer) { return Execution(Reply(error: why)) }
        let revision = lease.model.revision
        // Replayed: what was published when the watch is added; anything later comes live.
        let published = min(revision, state.publishedRevision.load(ordering: .acquiring))
        var from = from
        if let refusal =
            resumeRefusal(from: from, prefix: prefix, revision: revision, published: published)
            ?? grantsRefusal(from: from, prefix: p, user: session.user?.name)
        {
            // SNAPSHOT stands in for a resume that cannot be made.
            guard snapshot else { return Execution(Reply(error: refusal)) }
            from = nil
        }
        // Rows' revisions are kept in memory: since a restart, every entry not changed reads
        // as the revision loaded. A copy from before it holds older ones, which IF REV would
        // refuse, so a replica resuming across a restart is sent the rows as they read now.
        if snapshot, let f = from, f <= lease.model.changes.base { from = nil }
        let taken = snapshot && from == nil
        if taken, let refusal = Snapshot.refusal(of: p, in: lease.model, viewer: session.viewer) {
            return Execution(Reply(error: refusal))
        }
        let held = taken ? state.snapshots.take(owner: session.owner, revision: revision) : nil
        if taken && held == nil { return Execution(Reply(error: snapshotsFull(p, owner: session.owner))) }
        let added: Bool? = state.hub.withLock { hub in
            guard hub.watchCount(of: c) < RequestExecutor.mostWatches || hub.watches(c, p) else { return nil }
            return hub.add(c, p, format: session.format, view: WatcherView(session.viewer))
        }
        guard let added else { return Execution(Reply(error: RequestExecutor.watchesFull)) }
        guard from != nil || taken else {
            var reply = Reply(message: WatchAck(prefix: p, rev: revision).message)
            if subscribeReply { reply.subscription = subscription(c, p) }
            return Execution(reply)
        }
        // A replay (perhaps of nothing) or a snapshot: its reply, what it sends, then `* SYNCED`.
        var e = Execution(Reply(message: ""))
        // The list as the watcher's own LS shows it (its grants, its FILTER): the events after
        // it count their positions in the same view.
        let copy = held.map { Snapshot(model: lease.model, path: p, viewer: session.viewer, held: $0) }
        let after = min(from ?? published, published)
        e.replay = ReplayPlan(
            prefix: p, after: after, through: published, rev: revision, tag: tag, addedWatch: added,
            view: WatcherView(session.viewer), subscribeReply: subscribeReply, snapshot: copy, snapshotAsked: snapshot,
            inStream: inStream, textFormat: session.format == .text)
        return e
    }

    /// `UNWATCH`: one prefix (as typed, or as WATCH kept it, in the model's spelling), or
    /// every one; `answeredAsRedis`: confirmed as Redis confirms an UNSUBSCRIBE.
    func unwatch(
        _ c: ConnectionID, _ lease: ModelLease, prefix: String?, answeredAsRedis: Bool, session s: inout Session
    ) -> Execution {
        var p: String?
        if let prefix { p = ModelPath.join(ModelPath.segments(prefix, cwd: s.viewer.cwd)) }
        let canonical = p.map { lease.model.canonicalPath($0, viewer: s.viewer) }
        let (n, left, removed) = state.hub.withLock { hub in
            let n = hub.remove(c, p)
            guard n == 0, p != nil else { return (n, hub.watchCount(of: c), p) }
            return (hub.remove(c, canonical), hub.watchCount(of: c), canonical)
        }
        if let p, n == 0 { return Execution(Reply(error: TabulaError(.notFound, "not watching \(p)"))) }
        // Under the lock (read or write): every publication whose audience still had these
        // watches has a ticket by now.
        if n > 0 { s.unwatchedAt = state.publicationsIssued }
        var reply = Reply(message: "\(n) removed")
        // The channel as it was watched (SUBSCRIBE confirmed the model's spelling).
        if answeredAsRedis { reply.subscription = Reply.Subscription("unsubscribe", channel: removed, count: left) }
        return Execution(reply)
    }

    /// Why nothing could ever change under `p`: it is under no list (with the nearest list's
    /// name, of those `viewer` sees), or a price section's path; or nil.
    static func unwatchable(_ p: String, viewer: Viewer) -> TabulaError? {
        if let top = ModelPath.segments(p, cwd: "/").first, !Model.roots.contains(top) {
            let roots = Model.roots.filter { viewer.sees("/" + $0) }
            let hint =
                EditDistance.closest(to: top, in: roots).map { "; did you mean /\($0)?" }
                ?? "; the top-level lists are /\(roots.joined(separator: ", /"))"
            return TabulaError(.notFound, "nothing can change under \(p)\(hint)")
        }
        return sectionWatchRefusal(p)
    }

    /// The refusal of a snapshot of `p` while the most snapshots at once are being sent, to
    /// all or to `owner`.
    func snapshotsFull(_ p: String, owner: String?) -> TabulaError {
        let s = state.snapshots
        var whose = "\(s.most) snapshots are being sent, the most at once"
        if s.inUse < s.most, let owner {
            whose = "\(s.perOwner) snapshots are being sent to \(owner), its share at once"
        }
        return TabulaError(
            .limit,
            "\(whose); try again in a moment (or WATCH \(p) FROM a revision the history holds)")
    }

    /// The refusal of a watch past the most one connection may have.
    static var watchesFull: TabulaError {
        TabulaError(
            .limit,
            "this connection watches \(mostWatches) prefixes already, the most one may; UNWATCH some first (a prefix covers everything under it: WATCH / covers them all)"
        )
    }

    /// Why a watch of `p` would never be sent anything: a price section's path (`/items/cheap-items`)
    /// is no prefix of its items' paths (`/items/5`), so no event falls under it; or nil.
    static func sectionWatchRefusal(_ p: String) -> TabulaError? {
        let parts = ModelPath.segments(p, cwd: "/")
        guard parts.count == 2, parts[0] == "items", !parts[1].allSatisfy(\.isNumber) else { return nil }
        return TabulaError(
            .invalid,
            "\(p) is a price section, and an item's changes are events at /items/ID, not under it: WATCH /items (each event's at names its section)"
        )
    }

    /// Why `WATCH … FROM from` cannot resume (the history does not hold what follows
    /// `from`, or `from` is past this server's), or nil.
    private func resumeRefusal(from: UInt64?, prefix: String?, revision: UInt64, published: UInt64) -> TabulaError? {
        guard let from else { return nil }
        if from > revision, store.isShared {
            return TabulaError(
                .expired,
                "revision \(from) is ahead of this node, which has applied \(revision); SYNC \(from) first (it waits for this node to catch up), then WATCH \(prefix ?? "/") FROM \(from)"
            )
        }
        if from > revision {
            return TabulaError(
                .expired,
                "revision \(from) is newer than this server's history, which is at \(revision) (history id \(state.historyID)); the server started a new history or is another one, so nothing can be resumed: WATCH \(prefix ?? "/") SNAPSHOT (or LS to resync, then WATCH without FROM)"
            )
        }
        if from < published {
            let oldest = retainedOldest(revision: revision)
            if from + 1 < oldest { return RequestExecutor.expired(from, oldest: oldest) }
        }
        return nil
    }

    /// Why a copy made from revision `from` cannot be resumed by `user`: its grants changed
    /// after it (a reload of the users file), so the copy counts in the old grants' view.
    private func grantsRefusal(from: UInt64?, prefix: String, user: String?) -> TabulaError? {
        // A copy at the very revision of the change may be from before it: refused too (a
        // snapshot more, never a copy in the wrong view).
        guard let from, let user, let at = state.grantsChanged.withLock({ $0[user] }), from <= at else { return nil }
        return TabulaError(
            .expired,
            "the grants of user \(user) changed at revision \(at), not before \(from): a copy from before counts in the old grants, so it cannot be resumed: WATCH \(prefix) SNAPSHOT (or FROM \(from) SNAPSHOT)"
        )
    }

    /// The most prefixes one connection may watch: each costs the hub a set entry and its
    /// events a lookup per level, so one client cannot make every event cost more.
    static let mostWatches = 1024

    /// What a watch of `p` left `c` watching, for RESP's `subscribe` answer.
    func subscription(_ c: ConnectionID, _ p: String) -> Reply.Subscription {
        Reply.Subscription("subscribe", channel: p, count: state.hub.withLock { $0.watchCount(of: c) })
    }

    static func expired(_ rev: UInt64, oldest: UInt64) -> TabulaError {
        TabulaError(
            .expired,
            "revision \(rev) is older than the history kept; the oldest revision held is \(oldest), so FROM must be at least \(oldest - 1); WATCH with SNAPSHOT to be sent the rows as they are (or LS to resync, then WATCH without FROM)"
        )
    }

    /// The oldest revision still retained, in the store or in memory (call holding the lock
    /// that lent `lease`).
    func retainedOldest(_ lease: ModelLease) -> UInt64 { retainedOldest(revision: lease.model.revision) }

    /// `retainedOldest` where the model is at `revision`.
    private func retainedOldest(revision: UInt64) -> UInt64 {
        let memory = state.history.oldest ?? revision + 1
        let stored = state.storedHistoryOldest.load(ordering: .relaxed)
        return stored > 0 ? min(stored, memory) : memory
    }
}
