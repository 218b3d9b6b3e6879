/// A whole reply: data rows, then success with a short message, or an error.
public struct Reply: Sendable, Equatable {
    /// Data rows, in order.
    public var rows: [Row]
    /// The text after `OK` (may be empty), when the request succeeded.
    public var message: String
    /// The error, when it failed.
    public var error: TabulaError?
    /// The revision a change made (`rev=N` at the end of the text final line, `"rev"` in
    /// JSON), so a client can ask another node to `SYNC` to it; nil for a request that
    /// changed nothing.
    public var rev: UInt64?
    /// What a WATCH or UNWATCH left the connection watching: RESP answers them as Redis
    /// answers SUBSCRIBE (`subscribe`, the prefix, the count); text and JSON ignore it.
    public var subscription: Subscription?

    /// A change of what a connection watches.
    public struct Subscription: Sendable, Equatable {
        /// `subscribe` or `unsubscribe`.
        public var kind: String
        /// The prefix; nil for an UNWATCH of everything.
        public var channel: String?
        /// How many prefixes the connection watches now.
        public var count: Int

        public init(_ kind: String, channel: String?, count: Int) {
            self.kind = kind
            self.channel = channel
            self.count = count
        }
    }

    /// A successful reply.
    public init(rows: [Row] = [], message: String = "") {
        self.rows = rows
        self.message = message
        self.error = nil
    }

    /// A failed reply.
    public init(error: TabulaError) {
        self.rows = []
        self.message = ""
        self.error = error
    }

    /// Adds `notice` to the final line's text (an error's message, or the OK's), in
    /// parentheses: something the client should know beside the answer.
    public mutating func note(_ notice: String) {
        if error != nil {
            error!.message += " (\(notice))"
        } else {
            message += message.isEmpty ? "(\(notice))" : " (\(notice))"
        }
    }
}
