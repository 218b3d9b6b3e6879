/// A parsed request: an optional tag and a command.
public struct Request: Sendable, Equatable {
    /// The `#tag` without its `#`, repeated on the final line of the reply.
    public var tag: String?
    /// What to do.
    public var command: Command
    /// Makes a request.
    public init(tag: String? = nil, command: Command) {
        self.tag = tag
        self.command = command
    }
}
