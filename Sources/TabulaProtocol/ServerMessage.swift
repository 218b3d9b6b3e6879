/// One thing the server said: a push, a whole reply, or a line that is not the protocol.
public enum ServerMessage: Sendable, Equatable {
    case push(Push)
    case reply(DecodedReply)
    /// A line no Tabula server sends (another service on the port, or a bug).
    case unreadable(String)
}
