import TabulaProtocol

/// Names a connection across threads: which I/O loop owns it, and a serial number.
struct ConnectionID: Hashable, Sendable {
    let raw: UInt64

    init(loop: Int, serial: UInt64) { raw = serial << 8 | UInt64(loop & 0xFF) }
    init(raw: UInt64) { self.raw = raw }

    /// The index of the owning loop.
    var loop: Int { Int(raw & 0xFF) }
}

/// What an I/O loop hands the engine. `session` is the loop's copy of the connection's
/// session when nothing else of that connection was pending (it is authoritative then).
enum EngineInput: Sendable {
    case request(ConnectionID, Request, session: Session?)
    case failure(ConnectionID, tag: String?, TabulaError, session: Session?)
    case closed(ConnectionID)
    case shutdown
}

/// What the engine (or another loop, for events) hands an I/O loop.
enum LoopMessage: Sendable {
    /// Bytes for a connection; `completes` requests are answered by them, after which the
    /// connection's session is `session`.
    case send(ConnectionID, [UInt8], completes: Int, session: Session?)
    /// Close the connection once its queued output is written.
    case close(ConnectionID)
    /// Take this freshly accepted socket (the accepting loop deals them out round-robin).
    case adopt(Int32)
    /// Stop accepting and reading (shutdown has begun).
    case stopReading
    /// Say goodbye to every connection and close them (the engine has answered everything).
    case goodbye
}
