/// The per-connection wire format: how replies and pushes are written.
public enum WireFormat: String, Sendable, Hashable {
    /// Lines for people and `nc` (the default).
    case text
    /// One JSON object per line (`FORMAT json`).
    case json
    /// Server-Sent Events carrying the JSON objects (`GET /events` over HTTP; not a FORMAT):
    /// an event is `id: REV` and `data: {…}`, anything else names its kind (`event: reply`).
    case sse

    /// The formats a client may choose with FORMAT.
    public static let chosen: [WireFormat] = [.text, .json]
}
