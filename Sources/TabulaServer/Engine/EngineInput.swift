import TabulaModel
import TabulaProtocol

/// What the engine is handed.
enum EngineInput: Sendable {
    /// A connection's requests, in order, that must run on the engine (the first needs the
    /// store; the rest came after it), with the connection's session as they start: the loop
    /// owns the session, the engine works on this copy and hands back what it became.
    case group(ConnectionID, [RoutedUnit], session: Session)
    /// Other nodes of a shared store committed changes: read and apply them.
    case follow
    /// Stop after this batch (every loop has stopped reading and has nothing at the engine).
    case shutdown
}
