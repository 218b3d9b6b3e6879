import TabulaProtocol

/// `WATCH … PROGRESS`: a connection that asked is sent `* SYNCED rev` every
/// `ServerConfig.progressSeconds` while it watches, once the revision has moved on, so that a
/// quiet watch's one resume number keeps up with the history (etcd's progress notify): a
/// watch of /orders while only /items changes resumes from a revision the history still holds.
///
/// The revision is `postedAtTurn`, read before this turn drained its inbox: every event
/// through it was posted to the inbox before, so it is queued for the connection by now, and
/// the marker follows it. A connection in a replay is skipped (its events wait behind it).
extension EventLoop {
    func sendProgress() {
        let every = config.progressSeconds, r = postedAtTurn
        for c in conns.values
        where c.session.progress && c.replay == nil && r > c.progressSent && nowSeconds - c.progressAt >= every {
            guard !c.session.format.namesChannel, executor.state.hub.withLock({ $0.watches(c.id) }) else { continue }
            c.progressSent = r
            c.progressAt = nowSeconds
            push(Codec.push(.synced(rev: r), format: c.session.format), to: c)
        }
    }
}
