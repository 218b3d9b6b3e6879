import Glibc

/// A value behind a pthread mutex: the server's one lock for state shared between threads
/// (besides the state's reader-writer lock). Used instead of the standard library's `Mutex`,
/// which waits on a raw futex that the thread sanitizer cannot see, so that `swift test
/// --sanitize thread` checks every access it guards (pthread locks are intercepted) and a
/// report it makes is a real race. Uncontended, it costs what `Mutex` does (one atomic
/// exchange each way).
final class Locked<Value>: @unchecked Sendable {
    /// Reached only holding `mutex`, which makes each access exclusive: not checked again at
    /// run time.
    @exclusivity(unchecked) private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
