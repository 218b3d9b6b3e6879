import TabulaAccess
import TabulaModel
import TabulaProtocol

/// One connection's own view settings: current path, item filter and wire format, and who
/// it is.
struct Session: Sendable, Equatable {
    var viewer = Viewer()
    var format = WireFormat.text {
        didSet { viewer.wantsRevisions = format.carriesRevisions }
    }
    /// The server has users: nothing but AUTH, PING, HELP and QUIT until `user` is set.
    var authRequired = false
    /// The user this connection acts as, once authenticated.
    var user: AuthUser?
    /// The network its connection comes from (`PeerAddress.network`), as text, or nil for
    /// this machine (loopback, a Unix socket): whose share of limited places it takes where
    /// there are no users.
    var network: String?

    /// Whose share of limited places (snapshots being sent) it takes: its user's, or where
    /// there are no users its address's; nil for this machine's own clients without users,
    /// which share one address and are bounded by the total alone.
    var owner: String? { user.map { "user " + $0.name } ?? network.map { "address " + $0 } }
    /// Its codec's subscribe mode: its events arrive in its reply stream, so it may ask only
    /// verbs whose traits say `whileSubscribed` (kept by `Codec.settle`; RESP2's mode).
    var subscribed = false
    /// `WATCH … PROGRESS`: sent `* SYNCED rev` every so often (`EventLoop.sendProgress`).
    var progress = false
    /// Set by an UNWATCH that removed watches (cleared on the engine, whose answer follows its
    /// turn's publication anyway): the publications issued by then
    /// (`SharedState.publicationsIssued`), whose events the loop queues ahead of its reply
    /// (`EventLoop.settlePublished`), so that nothing of a removed watch follows its `OK`.
    var unwatchedAt: UInt64?

    /// Acts as `u` from now on: its grants limit what listings show.
    mutating func become(_ u: AuthUser?) {
        user = u
        viewer.grants = u.map { $0.grants.isUnrestricted ? nil : $0.grants } ?? nil
    }
}
