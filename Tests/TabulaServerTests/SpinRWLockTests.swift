import Foundation
import Synchronization
import Testing

@testable import TabulaServer

/// Two counters that must move together; only the lock keeps them equal.
private final class Pair: @unchecked Sendable {
    var a = 0
    var b = 0
}

@Suite struct SpinRWLockTests {
    @Test func writersExcludeEveryoneAndReadersNeverSeeAHalfDoneWrite() {
        let lock = SpinRWLock()
        let pair = Pair()
        let torn = Atomic<Int>(0)
        let perWriter = 50_000
        DispatchQueue.concurrentPerform(iterations: 4) { w in
            for i in 0..<perWriter {
                if (i + w) % 3 == 0 {
                    lock.lockRead()
                    if pair.a != pair.b { torn.wrappingAdd(1, ordering: .relaxed) }
                    lock.unlockRead()
                }
                lock.lockWrite()
                pair.a += 1
                pair.b += 1
                lock.unlockWrite()
            }
        }
        #expect(torn.load(ordering: .relaxed) == 0)
        #expect(pair.a == 4 * perWriter && pair.b == 4 * perWriter)
    }

    @Test func aSecondReaderGetsInWhileTheFirstIsInsideAndAWriterOnlyAfterBoth() {
        let lock = SpinRWLock()
        let inside = DispatchSemaphore(value: 0)
        let wrote = Atomic<Bool>(false)
        lock.lockRead()
        Thread {
            lock.lockRead()  // would wait forever if readers excluded each other
            inside.signal()
            lock.unlockRead()
        }.start()
        #expect(inside.wait(timeout: .now() + 10) == .success, "a second reader was kept out")
        let writerDone = DispatchSemaphore(value: 0)
        Thread {
            lock.lockWrite()
            wrote.store(true, ordering: .releasing)
            lock.unlockWrite()
            writerDone.signal()
        }.start()
        // The writer waits for the reader still inside (gate: it is known to wait), so it
        // cannot have written yet.
        let deadline = Date().addingTimeInterval(10)
        while lock.writersWaiting == 0 && !wrote.load(ordering: .acquiring) && Date() < deadline { sched_yield() }
        #expect(lock.writersWaiting == 1, "the writer never came to wait")
        let early = wrote.load(ordering: .acquiring)
        #expect(!early)
        lock.unlockRead()
        #expect(writerDone.wait(timeout: .now() + 10) == .success, "the writer never got in")
        let late = wrote.load(ordering: .acquiring)
        #expect(late)
    }
}
