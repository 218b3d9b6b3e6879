import TabulaProtocol

/// A codec that reads a connection's requests itself, chosen by the first bytes the
/// connection sends on the line port (RESP: `Codecs/RESP/RESPExchange`). The line protocol
/// is the default, read by the loop's `LineDecoder`; HTTP is chosen by its port.
protocol RequestCodec: AnyObject {
    /// Whether a connection's first bytes open this codec.
    static func opens(_ firstBytes: UnsafeRawBufferPointer) -> Bool
    /// The format its replies start in.
    static var firstFormat: WireFormat { get }
    /// Its state for a new connection: requests at most `maxRequest` bytes, tighter bounds
    /// while `unauthenticated`.
    init(maxRequest: Int, unauthenticated: Bool)
    /// Decodes `bytes` into `units` (appended, in order), returning how many requests ended.
    /// `facts` is read only when an answer the codec makes itself describes the server.
    func decode(_ bytes: UnsafeRawBufferPointer, into units: inout RoutedUnits, facts: () -> ServerFacts) -> Int
    /// Bytes of a request begun and not finished.
    var partialCount: Int { get }
    /// The name the client gave itself, shown in CLIENTS and /clients.
    var clientName: String? { get }
    /// Whether the pre-login bounds apply (`RequestGate`): set before each read from whether
    /// the connection has logged in.
    var unauthenticated: Bool { get set }
    /// The transaction it has open (MULTI without EXEC yet), if any.
    var openTransaction: TransactionQueue? { get }
}

/// What a codec may tell a client about the server and its connection.
struct ServerFacts {
    let connection: ConnectionID
    let historyID: String
    let revision: UInt64
    let port: Int
    let uptimeSeconds: Int
    /// Clients connected now, connections taken since the start, and requests answered.
    let connectedClients: Int
    let totalConnections: Int
    let requests: Int
    /// Whether the store keeps what is written (every commit flushed), as Redis's
    /// `appendonly yes` does.
    let durable: Bool
}

/// The registry of codecs chosen by first bytes, asked in order.
enum RequestCodecs {
    static var all: [any RequestCodec.Type] { [RESPExchange.self] }

    /// The codec `firstBytes` open, or nil for the line protocol.
    static func opened(by firstBytes: UnsafeRawBufferPointer) -> (any RequestCodec.Type)? {
        all.first { $0.opens(firstBytes) }
    }
}
