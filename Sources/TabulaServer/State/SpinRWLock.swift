import CLinuxShims
import Glibc
import Synchronization

/// A reader-writer lock for short critical sections: waiters spin, then yield the CPU, then
/// nap, rather than sleeping in the kernel at once. Writers go first: once a writer waits,
/// no new reader enters, so a stream of reads cannot starve writes.
///
/// The shared state's sections last microseconds (applying a batch of requests, reading a
/// page), and with two I/O loops a futex sleep and wake-up for every contended section cost
/// more than the sections themselves (the profile showed a quarter of the write path in
/// futex and scheduler code). Waiting for longer than a short spin gives the CPU away.
final class SpinRWLock: Sendable {
    /// Bit 0–31: readers inside. Bit 32: a writer inside. Bit 33 and up: writers waiting.
    private let state = Atomic<UInt64>(0)
    private static let writer: UInt64 = 1 << 32
    private static let waitingWriter: UInt64 = 1 << 33
    private static let readerMask: UInt64 = writer - 1

    init() {}

    func lockRead() {
        var backoff = Backoff()
        while true {
            let s = state.load(ordering: .relaxed)
            if s & ~SpinRWLock.readerMask == 0 {
                if state.compareExchange(expected: s, desired: s + 1, ordering: .acquiring).exchanged { return }
                continue
            }
            backoff.wait()
        }
    }

    func unlockRead() {
        state.wrappingSubtract(1, ordering: .releasing)
    }

    func lockWrite() {
        state.wrappingAdd(SpinRWLock.waitingWriter, ordering: .relaxed)
        var backoff = Backoff()
        while true {
            let s = state.load(ordering: .relaxed)
            if s & (SpinRWLock.readerMask | SpinRWLock.writer) == 0 {
                let taken = s - SpinRWLock.waitingWriter + SpinRWLock.writer
                if state.compareExchange(expected: s, desired: taken, ordering: .acquiring).exchanged { return }
                continue
            }
            backoff.wait()
        }
    }

    func unlockWrite() {
        state.wrappingSubtract(SpinRWLock.writer, ordering: .releasing)
    }

    /// Whether a reader or a writer is inside (debug checks: by anyone, not only the caller).
    var isHeld: Bool { state.load(ordering: .relaxed) & (SpinRWLock.readerMask | SpinRWLock.writer) != 0 }
    /// Whether a writer is inside.
    var isHeldForWriting: Bool { state.load(ordering: .relaxed) & SpinRWLock.writer != 0 }

    /// Writers waiting to get in (for tests and diagnostics; a snapshot).
    var writersWaiting: Int { Int(state.load(ordering: .acquiring) / SpinRWLock.waitingWriter) }

    /// Spin a little, then yield, then sleep in short naps.
    private struct Backoff {
        var rounds = 0
        mutating func wait() {
            rounds += 1
            if rounds <= 64 {
                for _ in 0..<8 { tabula_cpu_relax() }
            } else if rounds <= 64 + 200 {
                sched_yield()
            } else {
                var ts = timespec(tv_sec: 0, tv_nsec: 50_000)
                nanosleep(&ts, nil)
            }
        }
    }
}
