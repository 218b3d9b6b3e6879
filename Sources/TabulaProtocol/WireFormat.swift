/// The per-connection wire format: how replies and pushes are written.
public enum WireFormat: String, Sendable, Hashable {
    /// Lines for people and `nc` (the default).
    case text
    /// One JSON object per line (`FORMAT json`).
    case json
    /// Server-Sent Events carrying the JSON objects (`GET /events` over HTTP; not a FORMAT):
    /// an event is `id: REV` and `data: {…}`, anything else names its kind (`event: reply`).
    case sse
    /// Redis's RESP2 and RESP3 (a connection whose first request is multibulk or HELLO; not
    /// a FORMAT): see `RESPEncoder`.
    case resp2
    case resp3

    /// Whether this is RESP.
    public var isRESP: Bool { self == .resp2 || self == .resp3 }

    /// The formats a client may choose with FORMAT.
    public static let chosen: [WireFormat] = [.text, .json]
}
