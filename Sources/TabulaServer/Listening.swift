/// A listening socket and what it serves.
struct Listening: Sendable {
    enum Kind: Sendable { case tcp, unix, tls }
    let fd: Int32
    let kind: Kind
}
