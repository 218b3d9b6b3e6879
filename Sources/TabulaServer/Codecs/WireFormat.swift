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
    /// An HTTP request's reply (`GET /api/…`, `POST /api/VERB`, a page's first read, a Basic
    /// login): handed to `HTTPExchange` as a value, its body the reply's JSON.
    case httpAPI

    /// The line protocol's form `f`.
    init(_ f: LineFormat) {
        switch f {
        case .text: self = .text
        case .json: self = .json
        }
    }

    /// Whether its listed rows carry their entries' revisions (the JSON forms, RESP3's maps).
    var carriesRevisions: Bool { self == .json || self == .sse || self == .resp3 || self == .httpAPI }

    /// Its place among the formats, 0 ..< `count`.
    var ordinal: Int {
        switch self {
        case .text: 0
        case .json: 1
        case .sse: 2
        case .resp2: 3
        case .resp3: 4
        case .httpAPI: 5
        }
    }

    static let count = 6

    /// Whether an event's bytes name the channel (the watched prefix) it came by, so each
    /// watcher's are framed for it (RESP's `message`).
    var namesChannel: Bool { self == .resp2 || self == .resp3 }

    /// The formats that name channels (the others' watchers all get the same bytes).
    static let namingChannels: [WireFormat] = [.resp2, .resp3]
}
