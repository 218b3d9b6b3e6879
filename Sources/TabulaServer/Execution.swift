import TabulaModel
import TabulaProtocol

/// What running one request produced: the model's outcome (reply, event, mutations) and,
/// for the connection, events to replay right after the reply and whether to close.
struct Execution {
    /// Reply, event (not yet published) and what the store must write.
    var outcome: Outcome
    /// Events to push to the requester right after its reply (`WATCH … FROM`).
    var replay: [Event] = []
    /// Close the connection after the reply (`QUIT`).
    var close = false

    init(_ reply: Reply) { outcome = Outcome(reply) }
    init(_ outcome: Outcome) { self.outcome = outcome }
}
