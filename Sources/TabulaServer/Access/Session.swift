import TabulaAccess
import TabulaModel
import TabulaProtocol

/// One connection's own view settings: current path, item filter and wire format, and who
/// it is.
struct Session: Sendable, Equatable {
    var viewer = Viewer()
    var format = WireFormat.text {
        didSet { viewer.wantsRevisions = format == .json || format == .sse || format == .resp3 || format == .httpAPI }
    }
    /// The server has users: nothing but AUTH, PING, HELP and QUIT until `user` is set.
    var authRequired = false
    /// The user this connection acts as, once authenticated.
    var user: AuthUser?
    /// A RESP2 connection that watches something is in Redis's subscribe mode: it is sent
    /// events as `message` replies, so it may ask only verbs whose traits say `whileSubscribed`.
    var subscribed = false

    /// Acts as `u` from now on: its grants limit what listings show.
    mutating func become(_ u: AuthUser?) {
        user = u
        viewer.grants = u.map { $0.grants.isUnrestricted ? nil : $0.grants } ?? nil
    }
}
