import TabulaProtocol

/// The engine's answer to one connection's group of requests.
struct GroupAnswer: Sendable {
    let conn: ConnectionID
    /// The replies, as values: the connection's loop encodes them.
    let answers: [Answer]
    /// The session after them, when it changed.
    let session: Session?
    /// The last request asked to close (`QUIT`).
    let close: Bool
    /// The last request began a replay, which the loop runs before anything after it.
    let replay: ReplayPlan?
    /// What the engine did not run (past a replay, or past its share of one turn): the
    /// loop runs it next, ahead of anything it held, routing it anew.
    let rest: [RoutedUnit]
}
