import Foundation
import Glibc
import Testing

@testable import TabulaServer

/// The per-connection output queue over a real socket pair: everything queued arrives, in
/// order, however the socket takes it.
@Suite struct OutputQueueTests {
    /// A connected pair of non-blocking stream sockets.
    static func pair() -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        return (fds[0], fds[1])
    }

    static func readAll(_ fd: Int32) -> [UInt8] {
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return out }
            out += buf[0..<n]
        }
    }

    @Test func smallPiecesJoinAndEverythingArrivesInOrder() {
        let (a, b) = Self.pair()
        defer { close(a); close(b) }
        var q = OutputQueue()
        var expected: [UInt8] = []
        for i in 0..<300 {
            let piece = Array("line \(i)\n".utf8)
            q.append(piece)
            expected += piece
        }
        let big = [UInt8](repeating: UInt8(ascii: "x"), count: 10_000) + [10]
        q.append(big)
        expected += big
        #expect(q.count == expected.count)
        let (result, written) = q.flush(fd: a)
        guard case .done = result else { Issue.record("not all written: \(result)"); return }
        #expect(written == expected.count)
        #expect(q.isEmpty && q.atLineBoundary)
        #expect(Self.readAll(b) == expected)
    }

    @Test func aFullSocketWouldBlockAndTheRestGoesOutLaterFromWhereItStopped() {
        let (a, b) = Self.pair()
        defer { close(a); close(b) }
        var q = OutputQueue()
        var expected: [UInt8] = []
        for i in 0..<64 {
            let chunk = [UInt8](repeating: UInt8(65 + i % 26), count: 40_000) + [10]
            q.append(chunk)
            expected += chunk
        }
        var received: [UInt8] = []
        var blocked = false
        while !q.isEmpty {
            let (result, _) = q.flush(fd: a)
            if case .wouldBlock = result { blocked = true }
            if case .failed(let e) = result { Issue.record("flush failed: \(e)"); return }
            received += Self.readAll(b)
        }
        received += Self.readAll(b)
        #expect(blocked, "2.5 MB should fill a socket buffer at least once")
        #expect(received == expected)
    }

    @Test func aClosedPeerFailsTheFlush() {
        let (a, b) = Self.pair()
        close(b)
        defer { close(a) }
        var q = OutputQueue()
        q.append(Array("hello\n".utf8))
        let (result, _) = q.flush(fd: a)
        guard case .failed = result else { Issue.record("expected a failure, got \(result)"); return }
    }
}

/// The cross-thread queue the loops and the engine sleep on.
@Suite struct WakeableInboxTests {
    @Test func postedItemsArriveInOrderAndTakeEmptiesTheQueue() {
        let inbox = WakeableInbox<Int>()
        inbox.post([1, 2])
        inbox.post([3])
        #expect(inbox.take() == [1, 2, 3])
        #expect(inbox.take().isEmpty)
    }

    @Test func takingIntoABufferHandsOverEveryItemInOrderAndTheBufferIsUsedAgain() {
        let inbox = WakeableInbox<Int>()
        var buffer: [Int] = []
        inbox.take(into: &buffer)
        #expect(buffer.isEmpty)  // nothing queued: nothing taken
        inbox.post([1, 2])
        inbox.post([3])
        inbox.take(into: &buffer)
        #expect(buffer == [1, 2, 3])
        #expect(inbox.take().isEmpty)
        buffer.removeAll(keepingCapacity: true)
        let threads = (0..<4).map { t in Thread { for k in 0..<500 { inbox.post([t * 1_000 + k]) } } }
        threads.forEach { $0.start() }
        var seen: [Int] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while seen.count < 2_000 && ContinuousClock.now < deadline {
            inbox.take(into: &buffer)
            seen += buffer
            buffer.removeAll(keepingCapacity: true)
        }
        #expect(seen.count == 2_000)
        for t in 0..<4 {  // each producer's items in the order it posted them
            #expect(seen.filter { $0 / 1_000 == t } == (0..<500).map { t * 1_000 + $0 })
        }
    }

    @Test func aSleepingConsumerIsWokenThroughItsEventfdAndABusyOneIsNot() {
        let inbox = WakeableInbox<Int>()
        #expect(inbox.takeOrSleep().isEmpty)  // about to sleep
        var pfd = pollfd(fd: inbox.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&pfd, 1, 0) == 0)  // nothing yet
        Thread { inbox.post([7]) }.start()
        #expect(poll(&pfd, 1, 10_000) == 1, "the post did not wake the sleeper")
        inbox.awake()
        inbox.clearSignal()
        #expect(inbox.take() == [7])
        inbox.post([8])  // awake: no signal needed
        pfd.revents = 0
        #expect(poll(&pfd, 1, 0) == 0)
        #expect(inbox.take() == [8])
    }
}
