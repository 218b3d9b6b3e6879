import Synchronization

/// What other threads may reach of the engine: its inbox and whether it has finished. The
/// engine (`Engine`) is made on its own thread and never leaves it; loops, the follower and
/// the server hold this handle, which the compiler checks is safe to share.
final class EngineHandle: Sendable {
    let inbox = WakeableInbox<EngineInput>()
    /// Set once the engine has stopped and released the store.
    let finished = Atomic<Bool>(false)
    let state: SharedState
    let executor: RequestExecutor
    /// The groups waiting in a SYNC (the engine's, and its deadline thread's).
    let syncWaits = SyncWaits()

    init(state: SharedState, executor: RequestExecutor) {
        self.state = state
        self.executor = executor
    }

}
