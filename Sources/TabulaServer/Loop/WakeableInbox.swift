import CLinuxShims
import Synchronization

/// A queue from any thread to one consumer thread that sleeps in `poll`/`epoll` on an
/// eventfd. The eventfd is written only when the consumer said it was going to sleep, so a
/// busy consumer costs producers no system call.
final class WakeableInbox<Element: Sendable>: Sendable {
    private struct State {
        var items: [Element] = []
        var sleeping = false
    }

    private let state = Locked(State())
    /// Whether items are queued, kept beside the lock so that a consumer polling for work
    /// (`IdleSpin`) looks without taking the lock its producers need.
    private let queued = Atomic<Bool>(false)
    /// The eventfd the consumer waits on.
    let fd: Int32 = tabula_eventfd()

    /// Adds items (any thread); wakes the consumer if it sleeps.
    func post(_ items: [Element]) {
        guard !items.isEmpty else { return }
        let wake = state.withLock { s -> Bool in
            s.items += items
            queued.store(true, ordering: .releasing)
            if s.sleeping {
                s.sleeping = false
                return true
            }
            return false
        }
        if wake { _ = tabula_eventfd_signal(fd) }
    }

    /// How many items are queued (any thread; for tests and figures).
    var count: Int { state.withLock { $0.items.count } }

    /// Takes everything queued (consumer thread): nothing, without the lock, when nothing is
    /// (a post made before this call, as its caller knows it, is seen: `queued` is released
    /// with it).
    func take() -> [Element] {
        guard !isEmpty else { return [] }
        return state.withLock { s in
            var items: [Element] = []
            swap(&items, &s.items)  // handed over whole: no copy, and nothing allocated here
            queued.store(false, ordering: .relaxed)
            return items
        }
    }

    /// Takes everything queued into `buffer`, which must be empty, by swapping: the queue
    /// keeps the buffer's storage for the next posts, so a consumer that empties its buffer
    /// keeping its capacity and hands it back each time allocates nothing once both have
    /// grown (consumer thread).
    func take(into buffer: inout [Element]) {
        precondition(buffer.isEmpty, "take(into:) needs an empty buffer")
        guard !isEmpty else { return }
        state.withLock { s in
            swap(&buffer, &s.items)
            queued.store(false, ordering: .relaxed)
        }
    }

    /// Takes everything queued; when nothing is, records that the consumer is about to sleep
    /// (so the next `post` wakes it) and returns an empty array.
    func takeOrSleep() -> [Element] {
        state.withLock { s in
            if s.items.isEmpty {
                s.sleeping = true
                return []
            }
            let items = s.items
            s.items.removeAll(keepingCapacity: true)
            queued.store(false, ordering: .relaxed)
            return items
        }
    }

    /// Whether nothing is queued, read without the lock: by the consumer thread, while it
    /// polls, and as one of its write holds posts (`SharedState.post`, after the ticket's
    /// acquire: every earlier hold's post is seen).
    var isEmpty: Bool { !queued.load(ordering: .acquiring) }

    /// Whether anything is queued; if not, records that the consumer is about to sleep.
    func isEmptyMarkingSleep() -> Bool {
        state.withLock { s in
            if s.items.isEmpty {
                s.sleeping = true
                return true
            }
            return false
        }
    }

    /// The consumer is awake again.
    func awake() {
        state.withLock { $0.sleeping = false }
    }

    /// Clears the eventfd; call when the wait reported it readable (and only then: a read
    /// on every wake-up would cost a system call per turn of a busy loop).
    func clearSignal() {
        _ = tabula_eventfd_drain(fd)
    }
}
