/// Where a connection is in its life: one value, moved on by its loop alone. What it reads
/// and when it pauses reading (`Connection.readClosed`, `readPaused`) are its input's state,
/// beside this.
///
///     greeting ─▶ open ⇄ awaiting(bye: nil)
///                  │         │ the server closes it (`closeAfterOutput`)
///                  │         ▼
///                  │     awaiting(bye: reason) ─ its answer queued, then the goodbye ─┐
///                  ▼                                                                  ▼
///               closing (a goodbye, QUIT, a codec's close: close once written) ─▶ closed
enum ConnectionPhase: Equatable {
    /// Taken and not greeted yet: a line client is greeted at its first bytes, or after
    /// `EventLoop.greetingDelay` (a `RequestCodec`'s client never is).
    case greeting
    /// Its requests run on its loop as they come.
    case open
    /// Replies it must be sent before anything more runs for it are being made elsewhere: a
    /// group at the engine or the authenticator, or a run's replies waiting for what the
    /// loop's inbox held as it published to be queued first (`EventLoop.settlePublished`).
    /// What it sends meanwhile is held. `bye`: the server closes it, with that goodbye, once
    /// they are queued.
    case awaiting(bye: CloseReason?)
    /// Closing: nothing more runs for it; it closes once its output is written.
    case closing
    /// Closed by its loop, socket and all (other threads see it through `ConnectionLife`).
    case closed

    /// Whether its requests run now (not while it awaits replies, nor once it is closing).
    var runs: Bool { self == .open }

    /// Whether it awaits replies made elsewhere.
    var awaits: Bool {
        if case .awaiting = self { return true }
        return false
    }

    /// Whether it is closing or closed: nothing more runs for it.
    var isEnding: Bool { self == .closing || self == .closed }
}
