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

    @Test func readersShareTheLock() {
        let lock = SpinRWLock()
        lock.lockRead()
        lock.lockRead()  // a second reader gets in while the first is inside
        lock.unlockRead()
        lock.unlockRead()
        lock.lockWrite()  // and a writer once both are out
        lock.unlockWrite()
    }
}
