import TabulaModel
import TabulaProtocol

/// What the engine is handed.
enum EngineInput: Sendable {
    /// A connection's requests, in order, that must run on the engine (the first needs the
    /// store; the rest came after it), with the connection's session as they start: the loop
    /// owns the session, the engine works on this copy and hands back what it became.
    case group(ConnectionID, [LineUnit], session: Session)
    /// Changes made outside this process (another server on a shared store), already
    /// durable: applied to the model in order and published like local changes.
    case external(ExternalChange)
    /// Other nodes of a shared store committed changes: read and apply them.
    case follow
    /// Stop after this batch (every loop has stopped reading and has nothing at the engine).
    case shutdown
}

/// Stored changes and their events from elsewhere, revision by revision.
struct ExternalChange: Sendable {
    /// What to apply to the model.
    var mutations: [Mutation]
    /// The events they made, in revision order, numbered from the model's next revision on.
    var events: [Event]
}
