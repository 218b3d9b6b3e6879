import TabulaProtocol

/// Redis's subscribe mode on RESP2: a connection that watches something receives its events
/// as `message` replies in its reply stream, so it may ask only the verbs whose traits say
/// `whileSubscribed` (WATCH/SUBSCRIBE, UNWATCH/UNSUBSCRIBE, PING, QUIT), and PING is
/// answered as an array (`pong`, its text). RESP3 has pushes and no such mode.
enum RESPSubscribeMode {
    /// Why `command` may not run in `session`'s mode, or nil.
    static func refusal(_ command: Command, session: Session) -> TabulaError? {
        guard session.subscribed, !command.traits.whileSubscribed else { return nil }
        return TabulaError(
            .invalid,
            "Can't execute '\(command.verb.rawValue.lowercased())': only WATCH/SUBSCRIBE, UNWATCH/UNSUBSCRIBE, PING and QUIT are allowed in this context (RESP2 subscribe mode); UNSUBSCRIBE first, or use RESP3 (HELLO 3), where every command stays allowed"
        )
    }

    /// `e`, the execution of `command`, as the mode answers it; the mode entered or left.
    static func settle(_ e: inout Execution, of command: Command, session: inout Session) {
        let ok = e.outcome.reply.error == nil
        switch command {
        case .ping(let text) where session.subscribed:
            e.outcome.reply = Reply(rows: ["pong", text ?? ""].map { Row(text: $0, json: .string($0)) })
        case .watch where ok:
            session.subscribed = true
        case .unwatch where ok:
            if let left = e.outcome.reply.subscription?.count { session.subscribed = session.subscribed && left > 0 }
        default: break
        }
    }
}
