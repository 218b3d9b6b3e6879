import TabulaModel

/// A reload of the users file, as each loop applies it to its connections.
extension EventLoop {
    /// Brings an authenticated connection up to the users file as now loaded: closed when
    /// its user is gone, its secret changed, or its grants changed while it watches (its
    /// watches' copies count in the old grants' view); else acting with the user's current
    /// role and grants.
    func refreshUser(_ c: Connection) {
        guard let users = authenticator.users, let u = c.session.user, u.generation != users.generation else { return }
        guard let now = users.current(u) else {
            closeAfterOutput(
                c, .credentialsChanged("user \(u.name) was removed from the users file"),
                log: "its user \(u.name) was removed")
            return
        }
        if let old = u.credential, now.credential != old {
            closeAfterOutput(
                c,
                .credentialsChanged(
                    "the secret of user \(u.name) changed in the users file; log in again with the new one"),
                log: "its user \(u.name) has a new secret")
            return
        }
        let state = executor.state
        let watching = state.hub.withLock { $0.watches(c.id) }
        if watching && now.grants != u.grants {
            // What it was sent until now, through the last revision published, counts in the
            // old grants: no copy from before that may be resumed.
            let sent = state.publishedRevision.load(ordering: .acquiring)
            state.grantsChanged.withLock { $0[u.name] = max($0[u.name] ?? 0, sent) }
            closeAfterOutput(
                c,
                .credentialsChanged(
                    "the grants of user \(u.name) changed in the users file, and this connection's watches counted in the old ones; connect again and WATCH … SNAPSHOT"
                ), log: "its user \(u.name) has new grants while it watches")
            return
        }
        c.session.become(now)
        executor.state.hub.withLock { $0.setView(c.id, WatcherView(c.session.viewer)) }
    }
}
