import TabulaProtocol

/// Where the server turns replies, pushes and events into a connection's bytes: one place,
/// dispatching on the connection's `WireFormat` to its codec's folder: the line protocol's
/// text and JSON (`WireEncoder`, which the client's `WireDecoder` reads), Server-Sent Events
/// (`Codecs/HTTP/SSECodec`) and RESP2/RESP3 (`Codecs/RESP/RESPEncoder`).
enum Codec {
    static func reply(_ reply: Reply, tag: String?, format: WireFormat, into out: inout [UInt8]) {
        switch format {
        case .text: WireEncoder.encode(reply, tag: tag, format: .text, into: &out)
        // An HTTP API reply is handed to its codec as a value (`HTTPExchange.deliver`); as
        // bytes it is the line protocol's JSON, its body.
        case .json, .httpAPI: WireEncoder.encode(reply, tag: tag, format: .json, into: &out)
        case .sse: SSECodec.reply(reply, tag: tag, into: &out)
        case .resp2, .resp3: RESPEncoder.encode(reply, resp3: format == .resp3, into: &out)
        }
    }

    static func reply(_ reply: Reply, tag: String?, format: WireFormat) -> [UInt8] {
        var out: [UInt8] = []
        Codec.reply(reply, tag: tag, format: format, into: &out)
        return out
    }

    /// A greeting, goodbye or event (an event for a RESP connection names no channel: see
    /// `event(_:channel:format:into:)` for a watcher's).
    static func push(_ push: Push, format: WireFormat, into out: inout [UInt8]) {
        switch format {
        case .text: WireEncoder.encode(push, format: .text, into: &out)
        case .json, .httpAPI: WireEncoder.encode(push, format: .json, into: &out)  // an HTTP request is never pushed to
        case .sse: SSECodec.push(push, into: &out)
        case .resp2, .resp3: RESPEncoder.encode(push, resp3: format == .resp3, into: &out)
        }
    }

    static func push(_ push: Push, format: WireFormat) -> [UInt8] {
        var out: [UInt8] = []
        Codec.push(push, format: format, into: &out)
        return out
    }

    /// Event `e` for a watcher of `channel` (the prefix it watches, which RESP's `message`
    /// names; the other codecs write the same bytes for every watcher).
    static func event(_ e: Event, channel: String, format: WireFormat, into out: inout [UInt8]) {
        switch format {
        case .text: WireEncoder.encodeEvent(e, format: .text, into: &out)
        case .json, .httpAPI: WireEncoder.encodeEvent(e, format: .json, into: &out)
        case .sse: SSECodec.push(.event(e), into: &out)
        case .resp2, .resp3: RESPEncoder.event(e, channel: channel, resp3: format == .resp3, into: &out)
        }
    }

    /// A watch's snapshot row or `synced` marker for a watcher of `channel` (RESP names it).
    static func watchPush(_ p: Push, channel: String, format: WireFormat, into out: inout [UInt8]) {
        if format.namesChannel { return RESPEncoder.encode(p, channel: channel, resp3: format == .resp3, into: &out) }
        push(p, format: format, into: &out)
    }

    /// Why `command` may not run in the mode `session`'s codec is in, or nil (RESP2's
    /// subscribe mode: `Codecs/RESP/RESPSubscribeMode`).
    static func refusal(_ command: Command, session: Session) -> TabulaError? {
        session.format == .resp2 ? RESPSubscribeMode.refusal(command, session: session) : nil
    }

    /// `e`, the execution of `command`, as `session`'s codec answers it, and the mode the
    /// codec's session is in after it.
    static func settle(_ e: inout Execution, of command: Command, session: inout Session) {
        if session.format == .resp2 { RESPSubscribeMode.settle(&e, of: command, session: &session) }
    }

    /// A run of events' shared `payloads` framed for a watcher of `channel` in `format`.
    static func frame(_ payloads: [[UInt8]], channel: String, format: WireFormat) -> [UInt8] {
        RESPEncoder.messages(payloads, channel: channel, resp3: format == .resp3)
    }
}
