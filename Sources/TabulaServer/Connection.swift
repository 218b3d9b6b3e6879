import TabulaProtocol

/// One client socket, owned by one I/O loop thread.
final class Connection {
    let id: ConnectionID
    let fd: Int32
    var decoder: LineDecoder
    var output = OutputQueue()
    /// Requests handed to the engine and not yet answered.
    var pending = 0
    /// Current path, filter and format, as of the last answered request.
    var session = Session()
    /// Something was ever handed to the engine (so it must hear of the close).
    var forwarded = false
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
    /// The loop's activity window in which this connection last sent something.
    var activeWindow: UInt64 = 0

    init(id: ConnectionID, fd: Int32, maxLine: Int) {
        self.id = id
        self.fd = fd
        self.decoder = LineDecoder(maxLine: maxLine)
    }
}
