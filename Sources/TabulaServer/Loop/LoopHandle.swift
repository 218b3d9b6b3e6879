import Synchronization

/// What other threads may reach of an I/O loop: its inbox and what it publishes about
/// itself. The loop (`EventLoop`) is made on its own thread and never leaves it, so every
/// other thread holds this handle, which the compiler checks is safe to share.
final class LoopHandle: Sendable {
    let index: Int
    let inbox = WakeableInbox<LoopMessage>()
    /// Set when the loop has closed everything and returned.
    let finished = Atomic<Bool>(false)
    /// Set once the loop has stopped accepting and reading (shutdown).
    let readingStopped = Atomic<Bool>(false)
    /// During shutdown: no connection of this loop has anything at the engine or held for it,
    /// so the engine may stop.
    let nothingForEngine = Atomic<Bool>(false)
    /// This loop's connections as of its last second, for `CLIENTS` and `/metrics`.
    let clients = Locked<[ClientInfo]>([])
    /// The most output queued for one of this loop's connections, as of its last second.
    let largestQueued = Atomic<Int>(0)
    /// How long answering each read's requests took there.
    let batchSeconds = Histogram.seconds()
    /// The server's counters (shared by every loop).
    let stats: ServerStats

    init(index: Int, stats: ServerStats) {
        self.index = index
        self.stats = stats
    }

    /// Hands messages to the loop (any thread).
    func post(_ messages: [LoopMessage]) { inbox.post(messages) }
}
