import TabulaProtocol

/// One client socket, owned by one I/O loop thread.
final class Connection {
    let id: ConnectionID
    let fd: Int32
    var decoder: LineDecoder
    var output = OutputQueue()
    /// Requests (and the greeting) handed to the engine and not yet answered.
    var pending = 1
    /// The wire format, as of the last answered request (for answers given on the loop).
    var format = WireFormat.text
    /// The peer shut down its sending side: answer what was asked, then close.
    var readClosed = false
    /// Reading is paused because too much is pending.
    var readPaused = false
    /// Close once the output is written.
    var closeWhenFlushed = false
    /// The epoll interest now registered.
    var interest: UInt32 = 0
    /// Queued for a flush at the end of this loop turn.
    var dirty = false

    init(id: ConnectionID, fd: Int32, maxLine: Int) {
        self.id = id
        self.fd = fd
        self.decoder = LineDecoder(maxLine: maxLine)
    }
}
