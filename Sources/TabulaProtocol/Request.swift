/// A parsed request: an optional tag and a command.
public struct Request: Sendable, Equatable {
    /// The `#tag` without its `#`, repeated on the final line of the reply.
    public var tag: String?
    /// What to do.
    public let command: Command
    /// Its verb's traits (`command.traits`), read once: the route, the checks and the cache
    /// each ask for them, and a stored copy is read without copying the command.
    public let traits: VerbTraits
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
        traits = command.traits
    }
}
