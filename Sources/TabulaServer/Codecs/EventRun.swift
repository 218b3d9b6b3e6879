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
/// `message`, which names the watched prefix) shares each event's payload and frames it once
/// per channel and version: the members of a prefix's audience share one channel, so N
/// subscribers of a prefix cost one framing, not N.
struct EventRun {
    private let formats: FormatSet
    private var pieces: [[UInt8]]
    private var payloads: [[UInt8]] = []
    private let framed: Bool
    /// Frames made, by version and channel (a union audience has a few channels; past
    /// `mostFramings` the rest are framed per watcher).
    private var framings: [(format: WireFormat, channel: String, bytes: [UInt8])] = []
    static let mostFramings = 16

    init(formats: FormatSet) {
        self.formats = formats
        pieces = Array(repeating: [], count: WireFormat.count)
        framed = WireFormat.namingChannels.contains { formats.contains($0) }
    }

    /// Adds `e`, its JSON rendered once: the JSON watchers' line, SSE's data and RESP's
    /// payload are the same bytes.
    mutating func append(_ e: Event) {
        if formats.contains(.text) {
            Codec.event(e, channel: "", format: .text, into: &pieces[WireFormat.text.ordinal])
        }
        guard formats.contains(.json) || formats.contains(.sse) || framed else { return }
        let line: ArraySlice<UInt8>
        if formats.contains(.json) {
            let at = pieces[WireFormat.json.ordinal].count
            WireEncoder.encodeEvent(e, format: .json, into: &pieces[WireFormat.json.ordinal])
            line = pieces[WireFormat.json.ordinal][at...]
        } else {
            var own: [UInt8] = []
            WireEncoder.encodeEvent(e, format: .json, into: &own)
            line = own[...]
        }
        if formats.contains(.sse) { SSECodec.event(e, jsonLine: line, into: &pieces[WireFormat.sse.ordinal]) }
        if framed { payloads.append(Array(line.dropLast())) }  // RESP's payload: the line without its newline
    }

    /// The run's bytes for a watcher in `format` of `channel`.
    mutating func bytes(for format: WireFormat, channel: String) -> [UInt8] {
        guard format.namesChannel else { return pieces[format.ordinal] }
        if let made = framings.first(where: { $0.format == format && $0.channel == channel }) { return made.bytes }
        let bytes = Codec.frame(payloads, channel: channel, format: format)
        if framings.count < EventRun.mostFramings { framings.append((format, channel, bytes)) }
        return bytes
    }
}
