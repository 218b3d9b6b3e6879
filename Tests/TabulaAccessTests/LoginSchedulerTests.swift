import Testing

@testable import TabulaAccess

/// Which login is hashed next and how long a failure waits, as pure policy.
@Suite struct LoginSchedulerTests {
    typealias Scheduler = LoginScheduler<String, Int>
    static func live(_: Int) -> Bool { true }

    @Test func aQuietAddressIsHashedBeforeOneThatFailedRecently() {
        var s = Scheduler()
        let r1 = s.enqueue(1, name: "admin", from: "guesser", isLive: Self.live)
        #expect(r1)
        let (job, name, address) = s.next(at: 0, isLive: Self.live)!
        #expect(job == 1)
        _ = s.finish(name: name, from: address, failed: true, at: 0)
        let r2 = s.enqueue(2, name: "admin", from: "guesser", isLive: Self.live)
        #expect(r2)
        let r3 = s.enqueue(3, name: "ci", from: "quiet", isLive: Self.live)
        #expect(r3)
        let r4 = s.next(at: 1, isLive: Self.live)
        #expect(r4?.job == 3)
        let r5 = s.next(at: 1, isLive: Self.live)
        #expect(r5?.job == 2)
    }

    @Test func anAddressThatTriedMoreWaitsBehindOneThatTriedLessAmongEquals() {
        var s = Scheduler()
        _ = s.enqueue(1, name: "a", from: "busy", isLive: Self.live)
        _ = s.enqueue(2, name: "a", from: "busy", isLive: Self.live)
        let first = s.next(at: 0, isLive: Self.live)!
        _ = s.finish(name: first.name, from: first.address, failed: false, at: 0)
        _ = s.enqueue(3, name: "b", from: "new", isLive: Self.live)
        let r6 = s.next(at: 0, isLive: Self.live)
        #expect(r6?.job == 3)
    }

    @Test func amongFreshAddressesALoginAsANameWithoutFailuresGoesFirst() {
        var s = Scheduler()
        for k in 0..<3 {
            _ = s.enqueue(k, name: "admin", from: "fresh\(k)", isLive: Self.live)
        }
        _ = s.finish(name: "admin", from: "elsewhere", failed: true, at: 0)
        _ = s.enqueue(9, name: "ci", from: "newcomer", isLive: Self.live)
        let r = s.next(at: 0, isLive: Self.live)
        #expect(r?.job == 9)
    }

    @Test func noMoreThanTwoLoginsOfOneAddressAreHashedAtOnce() {
        var s = Scheduler()
        for j in 0..<5 { _ = s.enqueue(j, name: "a", from: "one", isLive: Self.live) }
        let r7 = s.next(at: 0, isLive: Self.live)
        #expect(r7?.job == 0)
        let r8 = s.next(at: 0, isLive: Self.live)
        #expect(r8?.job == 1)
        let r9 = s.next(at: 0, isLive: Self.live)
        #expect(r9 == nil, "both slots of the address are hashing")
        _ = s.finish(name: "a", from: "one", failed: false, at: 0)
        let r10 = s.next(at: 0, isLive: Self.live)
        #expect(r10?.job == 2)
    }

    @Test func anAddressMayHaveAtMost32LoginsWaitingAndGoneOnesMakeRoom() {
        var s = Scheduler()
        for j in 0..<Scheduler.maxPendingPerAddress {
            let queued = s.enqueue(j, name: "a", from: "one", isLive: Self.live)
            #expect(queued)
        }
        let r11 = s.enqueue(99, name: "a", from: "one", isLive: Self.live)
        #expect(!r11)
        let r12 = s.enqueue(100, name: "a", from: "other", isLive: Self.live)
        #expect(r12, "another address is not held to it")
        let r13 = s.enqueue(101, name: "a", from: "one") { $0 >= 16 }
        #expect(r13, "logins whose connection went are dropped to make room")
        #expect(s.dropped == 16)
    }

    @Test func aLoginWhoseConnectionWentIsDroppedUnhashed() {
        var s = Scheduler()
        _ = s.enqueue(1, name: "a", from: "x", isLive: Self.live)
        _ = s.enqueue(2, name: "a", from: "x", isLive: Self.live)
        let r14 = s.next(at: 0) { $0 != 1 }
        #expect(r14?.job == 2)
        #expect(s.dropped == 1 && s.pendingCount == 0)
    }

    @Test func aFailureWaitsDoubleForEachRecentFailureOfItsAddressOrNameUpTo1s() {
        var s = Scheduler()
        var delays: [Double] = []
        for k in 0..<8 { delays.append(s.finish(name: "admin", from: "a\(k % 2)", failed: true, at: 0)) }
        #expect(delays == [0.25, 0.5, 1, 1, 1, 1, 1, 1], "the name's failures count across addresses")
        let r15 = s.finish(name: "ci", from: "quiet", failed: false, at: 0)
        #expect(r15 == 0, "a success waits for nothing")
        let r16 = s.finish(name: "ci", from: "quiet", failed: true, at: 0)
        #expect(r16 == 0.25)
    }

    @Test func recentFailuresFadeSoNobodyIsLockedOutForGood() {
        var s = Scheduler()
        for _ in 0..<6 { _ = s.finish(name: "admin", from: "a", failed: true, at: 0) }
        let r17 = s.finish(name: "admin", from: "a", failed: true, at: 0)
        #expect(r17 == 1)
        let r18 = s.finish(name: "admin", from: "a", failed: true, at: 600)
        #expect(r18 == 0.25, "ten half-lives later")
    }

    @Test func aWrongPasswordIsAnsweredWithinASecondHoweverManyFailuresCameBefore() {
        var s = Scheduler()
        for k in 0..<200 {
            let d = s.finish(name: "default", from: "127.0.0.1", failed: true, at: Double(k) * 0.01)
            #expect(d <= 1, "a redis-py client (5 s timeout, 3 retries) would time out instead of being refused")
        }
    }

    /// Hashes every login it may at each tick of 10 ms over `seconds`, all of them wrong;
    /// returns the names hashed, in order.
    static func guess(_ s: inout Scheduler, seconds: Double) -> [String] {
        var hashed: [String] = []
        var t = 0.0
        while t < seconds {
            while let (_, name, address) = s.next(at: t, isLive: live) {
                hashed.append(name)
                _ = s.finish(name: name, from: address, failed: true, at: t)
            }
            t += 0.01
        }
        return hashed
    }

    @Test func afterItsFirstFailuresANameIsHashedAboutOnceASecondFromAnyNumberOfAddresses() {
        var s = Scheduler()
        for k in 0..<64 { _ = s.enqueue(k, name: "admin", from: "bot\(k)", isLive: Self.live) }
        let hashed = Self.guess(&s, seconds: 10)
        let free = Int(Scheduler.freeFailures)
        #expect(hashed.count >= free + 9 && hashed.count <= free + 10, "\(hashed.count) tries in 10 s")
        #expect(s.pacedUntil(at: 10) != nil, "the rest wait for their turn")
    }

    @Test func aPacedNameHoldsUpNoOtherNameOfTheSameAddress() {
        var s = Scheduler()
        for k in 0..<10 { _ = s.enqueue(k, name: "admin", from: "127.0.0.1", isLive: Self.live) }
        _ = Self.guess(&s, seconds: 0.5)
        _ = s.enqueue(99, name: "ci", from: "127.0.0.1", isLive: Self.live)
        let r = s.next(at: 0.5, isLive: Self.live)
        #expect(r?.job == 99, "ci's login waited behind the guessed name's")
    }

    @Test func aNameWithFewFailuresIsNotPaced() {
        var s = Scheduler()
        _ = s.finish(name: "ci", from: "a", failed: true, at: 0)
        for k in 0..<2 { _ = s.enqueue(k, name: "ci", from: "b\(k)", isLive: Self.live) }
        #expect(s.next(at: 0, isLive: Self.live) != nil)
        #expect(s.next(at: 0, isLive: Self.live) != nil)
        #expect(s.pacedUntil(at: 0) == nil)
    }

    @Test func drainingAtShutdownHandsBackEveryWaitingLogin() {
        var s = Scheduler()
        for j in 0..<3 { _ = s.enqueue(j, name: "a", from: "x\(j)", isLive: Self.live) }
        let r19 = s.drain()
        #expect(r19.sorted() == [0, 1, 2])
        let next = s.next(at: 0, isLive: Self.live)
        #expect(s.pendingCount == 0 && next == nil)
    }
}
