import TabulaProtocol

/// Formats as a set (an audience's: the formats its members want).
struct FormatSet: OptionSet, Sendable {
    let rawValue: UInt8

    init(rawValue: UInt8) { self.rawValue = rawValue }
    init(_ f: WireFormat) { rawValue = 1 << f.ordinal }

    func contains(_ f: WireFormat) -> Bool { rawValue & (1 << f.ordinal) != 0 }
}

/// A run of events for one audience, encoded once per format present in it: every watcher
/// in a format gets the same bytes. A codec whose events name the watcher's channel (RESP's
/// `message`, which names the watched prefix) shares each event's payload and frames it per
/// watcher.
struct EventRun {
    private let formats: FormatSet
    private var pieces: [[UInt8]]
    private var payloads: [[UInt8]] = []
    private let framed: Bool

    init(formats: FormatSet) {
        self.formats = formats
        pieces = Array(repeating: [], count: WireFormat.count)
        framed = WireFormat.namingChannels.contains { formats.contains($0) }
    }

    mutating func append(_ e: Event) {
        for f in WireFormat.sharingBytes where formats.contains(f) { Codec.push(.event(e), format: f, into: &pieces[f.ordinal]) }
        if framed { payloads.append(Codec.eventPayload(e)) }
    }

    /// The run's bytes for a watcher in `format` of `channel`.
    func bytes(for format: WireFormat, channel: String) -> [UInt8] {
        format.namesChannel ? Codec.frame(payloads, channel: channel, format: format) : pieces[format.ordinal]
    }
}
