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

    /// Where `unit` runs, and its verb's threading traits: decided once per unit, as it is
    /// decoded (`RoutedUnit`). A debug build counts each decision (`ServerStats.routesDecided`).
    static func route(_ unit: LineUnit, durable: Bool, stats: ServerStats) -> (Route, ServerTraits) {
        if case .request(let r) = unit { return route(r, durable: durable, stats: stats) }
        #if DEBUG
            stats.add(stats.routesDecided, 1)
        #endif
        switch unit {
        case .codecLogin: return (.authenticator, ServerTraits(runner: .authenticator))
        case .transaction: return (.engine, ServerTraits(runner: .engine, onCopy: true))
        default: return (.loop(.connection), ServerTraits())
        }
    }

    /// A request's route, from its verb's traits (read once at parse time) and the store.
    static func route(_ r: borrowing Request, durable: Bool, stats: ServerStats) -> (Route, ServerTraits) {
        #if DEBUG
            stats.add(stats.routesDecided, 1)
        #endif
        let access = r.traits.access
        let server = ServerTraits.of(r.command.verb, hasArguments: access == .write)
        switch server.runner {
        case .authenticator: return (.authenticator, server)
        case .engine: return (.engine, server)
        case .byAccess: return ((durable && access == .write) || server.onCopy ? .engine : .loop(access), server)
        }
    }

    /// Why `r` may not run for this connection, or nil. Every request passes here before it
    /// runs (a cached reply was made for a request that passed it with the same inputs). The
    /// model is read (in place, as the lock held lends it) only for a request that names a
    /// path, whose verb takes the lock that allows it (`lease` is nil for the others).
    @inline(__always)
    static func refusal(_ r: Request, session: Session, lease: ModelLease?) -> TabulaError? {
        if let refusal = Codec.refusal(r.command, session: session) { return refusal }
        if session.authRequired && session.user == nil && !r.command.traits.beforeLogin {
            return Authorization.authenticationRequired
        }
        guard let user = session.user else { return nil }
        return Authorization.refusal(r.command, user: user) { typed in
            lease!.model.canonicalPath(typed, viewer: session.viewer)
        }
    }
}
