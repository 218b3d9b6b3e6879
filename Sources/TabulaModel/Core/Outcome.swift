import TabulaProtocol

/// What applying a command produced: the reply, the event (for a change) and what to store.
public struct Outcome: Sendable {
    /// The reply to the requester.
    public var reply: Reply
    /// The change, for watchers; nil when nothing changed.
    public var event: Event?
    /// What durable storage must write.
    public var mutations: [Mutation]
    /// The entry the event names, as the write found it: its list (its index in
    /// `Model.lists`) and its place there (nil when the write does not say: it is then found
    /// by the event's path).
    public var entry: (list: Int, ref: Ref)?

    public init(_ reply: Reply, event: Event? = nil, mutations: [Mutation] = [], entry: (list: Int, ref: Ref)? = nil) {
        self.reply = reply
        self.event = event
        self.mutations = mutations
        self.entry = entry
    }

    static func fail(_ e: TabulaError) -> Outcome { Outcome(Reply(error: e)) }

    /// A write that would change nothing: answered as done, with no event and no revision.
    static func unchanged(_ message: String, rows: [Row] = []) -> Outcome {
        Outcome(Reply(rows: rows, message: message))
    }

    /// A change shown as one row: the reply holds the row, and the event carries the same
    /// row's JSON and by default its text, each kept as the row keeps it (an item's are
    /// written when sent, never built here).
    static func changed(
        _ kind: Event.Kind, path: String, entry: (list: Int, ref: Ref)? = nil, row: consuming Row, message: String,
        summary: String? = nil,
        mutations: [Mutation]
    ) -> Outcome {
        // The event first: the row is then moved into the reply, not copied.
        let event = Event(
            rev: 0, what: kind, path: path, summary: summary.map(LineText.init) ?? row.line, value: row.json)
        return Outcome(Reply(rows: [row], message: message), event: event, mutations: mutations, entry: entry)
    }

    /// A removal: no row, an `rm` event naming what went.
    static func removed(
        _ path: String, entry: (list: Int, ref: Ref)? = nil, title: String, message: String? = nil,
        mutations: [Mutation]
    ) -> Outcome {
        Outcome(
            Reply(message: message ?? "removed \(path)"),
            event: Event(rev: 0, what: .rm, path: path, summary: title, value: .null), mutations: mutations,
            entry: entry)
    }
}
