import TabulaProtocol

/// One client socket, owned by one I/O loop thread.
final class Connection {
    let id: ConnectionID
    let fd: Int32
    var decoder: LineDecoder
    var output = OutputQueue()
    /// Current path, filter and format: this loop is the session's only owner (the engine
    /// works on copies and hands back what they became).
    var session = Session()
    /// A group of this connection's requests is at the engine and not yet answered.
    var atEngine = false
    /// Requests read while a group was at the engine: they run after its answer, in order.
    var held: [LineUnit] = []
    /// The peer shut down its sending side: answer what was asked, then close.
    var readClosed = false
    /// Reading is paused because too many requests are held.
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
