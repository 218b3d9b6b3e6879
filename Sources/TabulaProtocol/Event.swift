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
