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
    /// A hash of the line it was parsed from (FNV-1a, seeded per process: `LineHash`), 0
    /// when it was not parsed from a line: what the reply cache hashes instead of the
    /// command, which costs several times more.
    public let lineHash: UInt64
    /// Makes a request.
    public init(tag: String? = nil, command: consuming Command, lineHash: UInt64 = 0, ifRev: UInt64? = nil) {
        self.tag = tag
        self.lineHash = lineHash
        self.ifRev = ifRev
        traits = command.traits
        self.command = command
    }
}

/// FNV-1a over bytes, from a basis drawn once per process, so that which lines share a hash
/// cannot be worked out ahead of time.
public enum LineHash {
    public static let basis = UInt64.random(in: 1 ... .max)

    /// `h` continued over `bytes`.
    @inline(__always)
    public static func fold<C: Collection>(_ h: UInt64, _ bytes: C) -> UInt64 where C.Element == UInt8 {
        var h = h
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        return h
    }
}
