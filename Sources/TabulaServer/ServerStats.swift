import Synchronization

/// Counters shared by the I/O loops and the engine.
final class ServerStats: Sendable {
    let connections = Atomic<Int>(0)
    let totalConnections = Atomic<Int>(0)
    let rejectedConnections = Atomic<Int>(0)
    let slowConsumersDropped = Atomic<Int>(0)
    let bytesIn = Atomic<Int>(0)
    let bytesOut = Atomic<Int>(0)
    let requests = Atomic<Int>(0)
    let eventsDelivered = Atomic<Int>(0)
    /// Bytes of incomplete request lines held, all connections together.
    let partialInput = Atomic<Int>(0)
    /// Connections closed for making no progress, or for being idle.
    let timedOut = Atomic<Int>(0)
    /// Logins checked against their slow hash, and those that failed.
    let loginsHashed = Atomic<Int>(0)
    let loginsFailed = Atomic<Int>(0)
    /// Logins waiting for a hasher now, and those dropped unhashed (their connection had gone).
    let loginsWaiting = Atomic<Int>(0)
    let loginsDropped = Atomic<Int>(0)
    /// Connections open per client address.
    let addresses = AddressBook()
    let started = ContinuousClock.now

    func add(_ a: borrowing Atomic<Int>, _ n: Int) { a.wrappingAdd(n, ordering: .relaxed) }
}
