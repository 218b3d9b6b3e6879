import TabulaAccess
import TabulaModel
import TabulaProtocol

/// Where a request runs, decided once from its verb's traits (the Verb table) and what the
/// store can do; and the per-connection rules a request must pass before it runs or is
/// answered from a cache.
enum Dispatcher {
    enum Route: Equatable {
        /// On the I/O loop that read it, holding the lock its access needs.
        case loop(VerbTraits.Access)
        /// On the engine thread: it must reach the store (a durable write), or it runs on a
        /// copy of the state (see `ServerTraits.onCopy`), which only the engine swaps in.
        case engine
        /// On the authenticator thread: `AUTH`, whose slow hash must not hold up a loop.
        case authenticator
    }

    static func route(_ unit: LineUnit, durable: Bool) -> Route {
        if case .codecLogin = unit { return .authenticator }
        if case .transaction = unit { return .engine }
        guard case .request(let r) = unit else { return .loop(.connection) }
        let traits = r.traits, server = ServerTraits.of(r)
        switch server.runner {
        case .authenticator: return .authenticator
        case .engine: return .engine
        case .byAccess: return (durable && traits.access == .write) || server.onCopy ? .engine : .loop(traits.access)
        }
    }

    /// Why `r` may not run for this connection, or nil. Every request passes here before it
    /// runs (a cached reply was made for a request that passed it with the same inputs). The
    /// model is read (through `state`, never copied; as the engine's turn has it `onEngine`,
    /// else as committed) only for a request that names a path, whose verb takes the lock
    /// that allows it.
    static func refusal(_ r: Request, session: Session, state: SharedState, onEngine: Bool) -> TabulaError? {
        if let refusal = Codec.refusal(r.command, session: session) { return refusal }
        if session.authRequired && session.user == nil && !r.command.traits.beforeLogin {
            return Authorization.authenticationRequired
        }
        guard let user = session.user else { return nil }
        return Authorization.refusal(r.command, user: user) { typed in
            state.readable(onEngine: onEngine).pointee.canonicalPath(typed, viewer: session.viewer)
        }
    }
}
