import TabulaModel
import TabulaProtocol

/// What running one request produced: the model's outcome (reply, event, mutations) and,
/// for the connection, a replay to run before its reply and whether to close.
struct Execution: Sendable {
    /// Reply, event (not yet published) and what the store must write.
    var outcome: Outcome
    /// `WATCH … FROM`: the replay the connection's loop runs; it writes the reply once the
    /// replay is counted, so the reply is not encoded with the others.
    var replay: ReplayPlan?
    /// Close the connection after the reply (`QUIT`).
    var close = false

    init(_ reply: consuming Reply) { outcome = Outcome(reply) }
    init(_ outcome: consuming Outcome) { self.outcome = outcome }
}
