/// A push: a line the server sends between replies, starting with `*`.
public enum Push: Sendable, Equatable {
    /// The greeting on connect: the protocol version, the server's software, the revision
    /// and the id of its history (it changes when the history starts anew: a fresh
    /// `--memory` server, a new database file), so a client can tell a resumable server
    /// from one that was reset.
    case hello(protocolVersion: Int, server: String, rev: UInt64, id: String)
    /// A change under a watched prefix.
    case event(Event)
    /// The server is closing this connection, and why.
    case bye(reason: String)
}

/// A change to the shared state, as watchers receive it.
public struct Event: Sendable, Equatable {
    /// The global revision this change made.
    public var rev: UInt64
    /// What happened: `add`, `set`, `select`, `rm`, `mv`, `fav`, `order`, `clear`, `bands`.
    public var kind: String
    /// The path of the thing that changed.
    public var path: String
    /// A one-line text summary (for text clients).
    public var summary: String
    /// The new value (null for removals).
    public var value: JSONValue

    /// Makes an event.
    public init(rev: UInt64, kind: String, path: String, summary: String, value: JSONValue) {
        self.rev = rev
        self.kind = kind
        self.path = path
        self.summary = summary
        self.value = value
    }
}
