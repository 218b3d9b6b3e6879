import Synchronization

/// One shared count, as a class so that counts can stand in arrays (one per error code, per
/// transport, per histogram bucket).
final class Counter: Sendable {
    let value = Atomic<Int>(0)

    func add(_ n: Int = 1) { value.wrappingAdd(n, ordering: .relaxed) }
    /// `add` for a count only one thread writes: a plain load and store.
    func bump(_ n: Int) { value.store(value.load(ordering: .relaxed) &+ n, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}
