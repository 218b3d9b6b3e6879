/// A codec that pairs each request with its response itself, chosen by the port a
/// connection came to (HTTP and HTTPS: `Codecs/HTTP/HTTPExchange`). It reads its
/// connection's bytes, decides what runs through the request pipeline and when
/// (`EventLoop.run(_:request:)`), and is handed the pipeline's answers as values, never as
/// bytes to read back. The loop asks it through this protocol alone.
///
/// The others sit beside it in the registry: the line protocol (the loop's `LineDecoder`,
/// the default) and the codecs chosen by first bytes (`RequestCodecs`: RESP), whose
/// decoded units the loop runs and whose answers it encodes by the connection's format.
protocol ExchangeCodec: AnyObject {
    /// Bytes just read for `c`.
    func take(_ bytes: UnsafeRawBufferPointer, of c: Connection, on loop: EventLoop)
    /// Its client sent all it will: what it began is finished and answered.
    func inputEnded(of c: Connection, on loop: EventLoop)
    /// The pipeline's answers for `c`, in order. Returns whether the last asked to close, and
    /// the replay it began.
    func deliver(_ answers: [Answer], to c: Connection, on loop: EventLoop) -> (close: Bool, replay: ReplayPlan?)
    /// Serves what waits, now that `c` may go on (an answer came, its client read).
    func serve(_ c: Connection, on loop: EventLoop)
    /// Requests read and waiting for their turn.
    var hasWaiting: Bool { get }
    /// Whether it holds so much read ahead that reading must pause.
    var holdsTooMuch: Bool { get }
    /// Bytes of a request begun and not finished.
    var partialCount: Int { get }
    /// What `c` is sent for a goodbye, given `bye`, the goodbye pushed in its format: nil to
    /// say nothing.
    func goodbye(_ reason: CloseReason, pushed bye: [UInt8], of c: Connection) -> [UInt8]?
    /// Something was pushed to `c` (an event, a keep-alive) at `now`.
    func pushed(at now: Int)
    /// Once a second: what keeps `c` open through proxies (a quiet stream's comment).
    func keepAlive(_ c: Connection, on loop: EventLoop)
    /// Whether `c` is kept alive with nothing asked or owed (closed, with nothing said, once
    /// that lasts the stall timeout).
    func isIdle(_ c: Connection) -> Bool
}

/// The registry of exchange codecs, chosen by the port a connection came to.
enum ExchangeCodecs {
    /// The codec for a connection to a listener of `kind`, and the format its replies are
    /// made in; nil when its requests are lines or a `RequestCodec`'s.
    static func opened(for kind: Listening.Kind) -> (codec: any ExchangeCodec, format: WireFormat)? {
        kind.isHTTP ? (HTTPExchange(), .httpAPI) : nil
    }
}
