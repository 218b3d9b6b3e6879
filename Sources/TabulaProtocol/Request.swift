/// A parsed request: an optional tag and a command.
public struct Request: Sendable, Equatable {
    /// The `#tag` without its `#`, repeated on the final line of the reply.
    public var tag: String?
    /// What to do.
    public var command: Command
    /// Answer a WATCH or UNWATCH as Redis answers SUBSCRIBE and UNSUBSCRIBE (`Reply.
    /// subscription`): set by the RESP codec for those, and for WATCH/UNWATCH on RESP2.
    public var subscribeReply = false
    /// `IF REV n`: the write applies only if what it changes was last changed at or before
    /// revision n (nil: unconditional).
    public var ifRev: UInt64?
    /// Makes a request.
    public init(tag: String? = nil, command: Command) {
        self.tag = tag
        self.command = command
    }
}
