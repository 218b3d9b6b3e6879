/// Names a connection across threads: which I/O loop owns it, and a serial number.
struct ConnectionID: Hashable, Sendable {
    let raw: UInt64

    init(loop: Int, serial: UInt64) { raw = serial << 8 | UInt64(loop & 0xFF) }
    init(raw: UInt64) { self.raw = raw }

    /// The index of the owning loop.
    var loop: Int { Int(raw & 0xFF) }
}

/// What an I/O loop hands the engine.
enum EngineInput: Sendable {
    case opened(ConnectionID)
    case request(ConnectionID, Request)
    case failure(ConnectionID, tag: String?, TabulaError)
    case closed(ConnectionID)
    case shutdown
}

/// What the engine hands an I/O loop.
enum LoopMessage: Sendable {
    /// Bytes for a connection; `completes` requests (or the greeting) are answered by them;
    /// `format` is the connection's wire format from now on.
    case send(ConnectionID, [UInt8], completes: Int, format: WireFormat)
    /// Close the connection once its queued output is written.
    case close(ConnectionID)
    /// Stop accepting and reading; the engine will close every connection.
    case shutdown
}

import TabulaProtocol
