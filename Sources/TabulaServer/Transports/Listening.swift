/// A listening socket and what it serves.
struct Listening: Sendable {
    /// How connections to it talk: the line protocol over TCP, TLS or a Unix socket, or HTTP.
    enum Kind: String, Sendable, CaseIterable {
        case tcp, tls, unix, http
        /// RESP from the first byte (`--resp-port`): no greeting, no choice of codec.
        case resp
    }
    let fd: Int32
    let kind: Kind
}
