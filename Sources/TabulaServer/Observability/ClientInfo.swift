import TabulaProtocol

/// One connection as operators see it (`CLIENTS`, `GET /clients`): what Redis's CLIENT LIST
/// and NATS's /connz show. Each loop writes its connections' at its once-a-second sweep, so a
/// listing is at most a second old.
struct ClientInfo: Sendable {
    let id: UInt64
    let address: String
    let transport: Listening.Kind
    let user: String?
    /// When (monotonic seconds) it connected and last completed a request.
    let connectedAt: Int
    let lastRequest: Int
    let watches: Int
    /// Bytes queued for it and not yet written.
    let outputQueued: Int
    /// A `WATCH … FROM` replay in progress: the revision it has reached, and the last it replays.
    let replayAt: UInt64?
    let replayThrough: UInt64?
    /// The format of a connection whose first bytes chose its codec (`resp2`, `resp3`), and
    /// the name its client gave itself (RESP's CLIENT SETNAME).
    var codec: String? = nil
    var name: String? = nil

    /// The fields as a row, for `CLIENTS` (text) and JSON; `now` is the monotonic clock in seconds.
    func row(now: Int) -> Row {
        let age = max(0, now - connectedAt), idle = max(0, now - lastRequest)
        var text =
            "\(id)  \(address)  \(transport.rawValue)  user=\(user ?? "-")  age=\(age)s  idle=\(idle)s  watches=\(watches)  queued=\(outputQueued)"
        if let at = replayAt, let through = replayThrough { text += "  replay=\(at)/\(through)" }
        if let codec { text += "  proto=\(codec)" }
        if let name { text += "  name=\(name)" }
        var pairs: [(String, JSONValue)] = [
            ("id", .int(Int64(clamping: id))), ("address", .string(address)),
            ("transport", .string(transport.rawValue)),
            ("user", user.map { .string($0) } ?? .null), ("age_seconds", .int(Int64(age))),
            ("idle_seconds", .int(Int64(idle))),
            ("watches", .int(Int64(watches))), ("output_queued_bytes", .int(Int64(outputQueued))),
        ]
        if let codec { pairs.append(("protocol", .string(codec))) }
        if let name { pairs.append(("name", .string(name))) }
        if let at = replayAt, let through = replayThrough {
            pairs.append(
                ("replay", .object([("at", .int(Int64(clamping: at))), ("through", .int(Int64(clamping: through)))])))
        }
        return Row(text: text, json: .object(pairs))
    }

    /// `GET /clients`: `{"clients":[…]}`.
    static func json(_ clients: [ClientInfo], now: Int) -> [UInt8] {
        var out: [UInt8] = []
        JSONValue.object([("clients", .array(clients.map { $0.row(now: now).json }))]).write(to: &out)
        out.append(10)
        return out
    }
}
