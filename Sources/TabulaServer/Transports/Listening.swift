/// A listening socket and what it serves.
struct Listening: Sendable {
    /// How connections to it talk: the line protocol over TCP, TLS or a Unix socket, or HTTP.
    enum Kind: String, Sendable, CaseIterable {
        case tcp, tls, unix, http
        /// RESP from the first byte (`--resp-port`): no greeting, no choice of codec.
        case resp
        /// HTTP over TLS (`--https-port`).
        case https

        /// Its connections speak HTTP.
        var isHTTP: Bool { self == .http || self == .https }
        /// Its connections begin with a TLS handshake (on the handshake thread).
        var isTLS: Bool { self == .tls || self == .https }
    }
    let fd: Int32
    let kind: Kind
}
