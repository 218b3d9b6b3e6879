import TabulaProtocol

/// Where the server runs a verb's requests, beyond what their access decides: threading, the
/// server's business alone, so it is kept here and not in the verb table that clients link.
struct ServerTraits: Equatable {
    enum Runner: Equatable {
        /// On the I/O loop that read it, holding the lock its access needs; a write to a
        /// durable store, or one run on a copy, goes to the engine.
        case byAccess
        /// Always on the engine thread (SYNC, which may wait for the engine's next turns).
        case engine
        /// On the authenticator thread (AUTH, whose slow hash must not hold up a loop).
        case authenticator
    }

    var runner = Runner.byAccess
    /// A write whose cost grows with a whole list (BANDS re-sections every item): run on a
    /// copy of the state, outside the lock, and swapped in.
    var onCopy = false
    /// It reads what is published (the history, the watches, the counters): after a change
    /// of the same run or turn, which is published when it ends, it waits for the next one.
    var readsPublished = false

    /// A verb's, with or without arguments (BANDS with them runs on a copy; without, it reads).
    static func of(_ verb: Verb, hasArguments: Bool = false) -> ServerTraits {
        switch verb {
        case .bands where hasArguments: ServerTraits(onCopy: true)
        case .watch, .stats: ServerTraits(readsPublished: true)
        case .auth: ServerTraits(runner: .authenticator)
        case .sync: ServerTraits(runner: .engine)
        default: ServerTraits()
        }
    }
}
