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

    init(state: SharedState, executor: RequestExecutor) {
        self.state = state
        var onEngine = executor
        onEngine.onEngine = true
        self.executor = onEngine
    }

    /// Queues inputs for the engine (any thread); wakes it if it sleeps.
    func submit(_ inputs: [EngineInput]) { inbox.post(inputs) }
}
