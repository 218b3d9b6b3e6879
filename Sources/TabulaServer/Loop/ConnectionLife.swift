import Synchronization

/// Whether a connection is still open, readable from any thread: work queued for a
/// connection elsewhere (a login waiting to be hashed) is dropped once it has gone.
final class ConnectionLife: Sendable {
    private let open = Atomic<Bool>(true)

    var isOpen: Bool { open.load(ordering: .relaxed) }

    /// The loop closed the connection.
    func end() { open.store(false, ordering: .relaxed) }
}
