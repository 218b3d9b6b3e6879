import Glibc
import Synchronization
import TabulaStorage

/// The thread that keeps a node of a cluster up with the others: it waits on the store's
/// change listener (a notification, or 100 ms without one) and, when the store's head is not
/// the node's published revision, pokes the engine, which reads and applies the changes.
///
/// Its listener (a connection of its own) is opened on its thread and stays there, so the
/// follower holds only what may be shared.
final class ClusterFollower: Sendable {
    /// The longest a change can wait unnoticed when a notification is lost.
    static let pollMilliseconds: Int32 = 100
    private let store: StateStore
    private let engine: EngineHandle
    private let state: SharedState
    private let log: Log
    let stopped = Atomic<Bool>(false)
    let finished = Atomic<Bool>(false)

    init(store: StateStore, engine: EngineHandle, state: SharedState, log: Log) {
        self.store = store
        self.engine = engine
        self.state = state
        self.log = log
    }

    func run() {
        guard let listener = store.openChangeListener() else { return finished.store(true, ordering: .releasing) }
        var failing = false
        while !stopped.load(ordering: .acquiring) {
            do {
                let head = try listener.next(timeoutMs: ClusterFollower.pollMilliseconds)
                state.storeHead.store(head, ordering: .relaxed)
                if failing { log.log(.info, "following the other nodes again") }
                failing = false
                if head != state.publishedRevision.load(ordering: .acquiring) { engine.submit([.follow]) }
            } catch {
                if !failing { log.log(.warn, "cannot follow the other nodes (\(error)); retrying") }
                failing = true
                // The engine also retries on its own (its turns and follow pokes reconnect).
                engine.submit([.follow])
                usleep(UInt32(ClusterFollower.pollMilliseconds) * 2000)
            }
        }
        finished.store(true, ordering: .releasing)
    }
}
