/// What the engine (or another loop, for events) hands an I/O loop.
enum LoopMessage: Sendable {
    /// Event bytes for a watcher.
    case send(ConnectionID, [UInt8])
    /// The engine's answer to a connection's group.
    case answer(GroupAnswer)
    /// Take this freshly accepted socket (the accepting loop deals them out round-robin),
    /// with its TLS session when it came to the TLS port (the handshake is done).
    case adopt(Int32, PeerAddress, Listening.Kind, tls: TLSSession?)
    /// A replay's step taken by the `ReplayReader` against the store: the replay as it is
    /// now, and what the step made.
    case replayStep(ConnectionID, Replay, Replay.Step)
    /// The users file was reloaded: connections of removed users are closed, the others act
    /// with their user's new role and grants.
    case usersReloaded
    /// The node's history was replaced (see `HistoryDiverged`): every connection is closed
    /// with this `* BYE`.
    case dropAll(CloseReason)
    /// Stop accepting and reading (shutdown has begun).
    case stopReading
    /// Say goodbye to every connection and close them (the engine has answered everything).
    case goodbye
}
