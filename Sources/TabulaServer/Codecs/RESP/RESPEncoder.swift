import TabulaProtocol

/// Tabula's replies and pushes in RESP (Protocol.md, section 15).
///
/// - A change's reply is its message as a status, with ` rev=N` after it as on a text final
///   line (`+My Int: 32 rev=58`). Any other reply with rows is an array: of each row's text
///   (RESP2), or of each row's JSON fields as a map (RESP3). A reply without rows is its
///   message as a status (`+OK` when empty).
/// - An error is `-CODE message`, Tabula's code as the error prefix (`-NOTFOUND …`).
/// - An event is `message`, its channel (the watched prefix) and its JSON: an array in
///   RESP2's subscribe mode, a push (`>`) in RESP3.
/// - A goodbye is `-BYE reason`, an error the client reports before the socket closes.
public enum RESPEncoder {
    public static func encode(_ reply: Reply, resp3: Bool, into out: inout [UInt8]) {
        let w = RESPWriter(resp3: resp3)
        if let e = reply.error { return w.error(e.code.rawValue, e.message, into: &out) }
        if let s = reply.subscription {
            return subscription(s.kind, channel: s.channel, count: s.count, resp3: resp3, into: &out)
        }
        guard !reply.rows.isEmpty && reply.rev == nil else {
            var message = reply.message.isEmpty ? "OK" : reply.message
            if let rev = reply.rev { message += " rev=\(rev)" }
            return w.simple(message, into: &out)
        }
        w.array(reply.rows.count, into: &out)
        for i in reply.rows.indices {
            if resp3 {
                w.json(reply.rows[i].json, into: &out)
            } else {
                w.bulk(reply.rows[i].text, into: &out)
            }
        }
    }

    /// An event, sent on `channel` (the prefix the client watches).
    public static func event(_ e: Event, channel: String, resp3: Bool, into out: inout [UInt8]) {
        message(payload(e), channel: channel, resp3: resp3, into: &out)
    }

    /// An event's JSON, the data of its `message` (made once, framed for each channel).
    public static func payload(_ e: Event) -> [UInt8] {
        var json: [UInt8] = []
        WireEncoder.encodeEvent(e, format: .json, into: &json)
        json.removeLast()  // its newline
        return json
    }

    /// A `message` carrying `payload` on `channel`.
    public static func message(_ payload: [UInt8], channel: String, resp3: Bool, into out: inout [UInt8]) {
        let w = RESPWriter(resp3: resp3)
        w.push(3, into: &out)
        w.bulk("message", into: &out)
        w.bulk(channel, into: &out)
        w.bulk(payload, into: &out)
    }

    public static func encode(_ push: Push, resp3: Bool, into out: inout [UInt8]) {
        encode(push, channel: nil, resp3: resp3, into: &out)
    }

    /// A push for a watcher of `channel` (nil: the event's own path): a watch's rows and
    /// markers are `message`s on the watched prefix, their payload the line protocol's JSON.
    public static func encode(_ push: Push, channel: String?, resp3: Bool, into out: inout [UInt8]) {
        switch push {
        case .hello: return  // a RESP client is not greeted (it speaks first)
        case .bye(let reason): RESPWriter(resp3: resp3).error("BYE", reason, into: &out)
        case .event(let e): event(e, channel: channel ?? e.path, resp3: resp3, into: &out)
        case .synced, .row, .snapshot:
            var json: [UInt8] = []
            WireEncoder.encode(push, format: .json, into: &json)
            json.removeLast()  // its newline
            message(json, channel: channel ?? "/", resp3: resp3, into: &out)
        }
    }

    /// A confirmation of subscribe mode: `subscribe`/`unsubscribe`, the channel (nil: none)
    /// and how many the connection now watches.
    public static func subscription(_ kind: String, channel: String?, count: Int, resp3: Bool, into out: inout [UInt8])
    {
        let w = RESPWriter(resp3: resp3)
        w.push(3, into: &out)
        w.bulk(kind, into: &out)
        if let channel { w.bulk(channel, into: &out) } else { w.null(into: &out) }
        w.integer(Int64(count), into: &out)
    }
}

extension RESPEncoder {
    /// A run of events' JSON payloads as RESP `message` replies on `channel` (members each
    /// watch their own prefix, which each message names: only the framing is per member).
    static func messages(_ payloads: [[UInt8]], channel: String, resp3: Bool) -> [UInt8] {
        var out: [UInt8] = []
        for p in payloads { message(p, channel: channel, resp3: resp3, into: &out) }
        return out
    }
}
