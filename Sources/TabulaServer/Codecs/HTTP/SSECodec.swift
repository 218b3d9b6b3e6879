import TabulaProtocol

/// Server-Sent Events (`GET /events`): each message is the line protocol's JSON object in a
/// `data:` field. An event carries its revision as its `id:` (a browser that reconnects sends
/// it back as `Last-Event-ID`); anything else names its kind (`event: reply`, `hello`, `bye`).
enum SSECodec {
    static func reply(_ reply: Reply, tag: String?, into out: inout [UInt8]) {
        out.append(contentsOf: "event: reply\ndata: ".utf8)
        WireEncoder.encode(reply, tag: tag, format: .json, into: &out)
        out.append(10)
    }

    static func push(_ push: Push, into out: inout [UInt8]) {
        switch push {
        case .event(let e):
            var line: [UInt8] = []
            WireEncoder.encodeEvent(e, format: .json, into: &line)
            return event(e, jsonLine: line[...], into: &out)
        case .hello: out.append(contentsOf: "event: hello\ndata: ".utf8)
        case .bye: out.append(contentsOf: "event: bye\ndata: ".utf8)
        case .synced(let rev):
            // Its id moves the browser's Last-Event-ID on: a reconnect resumes from it.
            out.append(contentsOf: "id: ".utf8)
            WireEncoder.appendDecimal(rev, to: &out)
            out.append(contentsOf: "\nevent: synced\ndata: ".utf8)
        case .row: out.append(contentsOf: "event: row\ndata: ".utf8)
        case .snapshot: out.append(contentsOf: "event: snapshot\ndata: ".utf8)
        }
        WireEncoder.encode(push, format: .json, into: &out)
        out.append(10)
    }

    /// Event `e`'s message, its data `jsonLine` (its JSON line, newline included, as the line
    /// protocol's JSON watchers are sent it: rendered once for both).
    static func event(_ e: Event, jsonLine: ArraySlice<UInt8>, into out: inout [UInt8]) {
        out.append(contentsOf: "id: ".utf8)
        WireEncoder.appendDecimal(e.rev, to: &out)
        out.append(contentsOf: "\ndata: ".utf8)
        out.append(contentsOf: jsonLine)
        out.append(10)
    }
}
