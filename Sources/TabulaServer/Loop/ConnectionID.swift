import TabulaProtocol

/// Names a connection across threads: which I/O loop owns it, and a serial number.
struct ConnectionID: Hashable, Sendable {
    let raw: UInt64

    init(loop: Int, serial: UInt64) { raw = serial << 8 | UInt64(loop & 0xFF) }
    init(raw: UInt64) { self.raw = raw }

    /// The index of the owning loop.
    var loop: Int { Int(raw & 0xFF) }
}
