import TabulaProtocol

/// How a connection's replies and pushes are written: the registry of the server's writing
/// codecs, each in its folder (see `Codec`).
enum WireFormat: String, Sendable, Hashable {
    /// The line protocol's forms (`FORMAT text|json`): `WireEncoder`.
    case text
    case json
    /// Server-Sent Events carrying the JSON objects (`GET /events` over HTTP; not a FORMAT):
    /// `Codecs/HTTP/SSECodec`.
    case sse
    /// Redis's RESP2 and RESP3 (a connection whose first request is multibulk or HELLO; not
    /// a FORMAT): `Codecs/RESP/RESPEncoder`.
    case resp2
    case resp3
    /// An HTTP request's reply, as a record its response is made from (`GET /api/…`,
    /// `POST /api/VERB`, a page's first read, a Basic login): `Codecs/HTTP/HTTPAPICodec`.
    case httpAPI

    /// The line protocol's form `f`.
    init(_ f: LineFormat) {
        switch f {
        case .text: self = .text
        case .json: self = .json
        }
    }

    /// Whether this is RESP.
    var isRESP: Bool { self == .resp2 || self == .resp3 }
}
