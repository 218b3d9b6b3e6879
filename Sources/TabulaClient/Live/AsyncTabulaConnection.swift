import Foundation
import Synchronization

/// A line-protocol connection for async code: the lines the server sends as an
/// `AsyncStream` (replies and pushes, in order, without line endings), and `send`. One
/// thread of its own makes the socket and owns it (it reads, and writes what `send` queued),
/// so the connection is used from any task, TLS included, without two threads in one socket.
///
/// Bounded against a server that floods it: a line longer than `maxLine` ends the
/// connection (`endReason` says so); and with a `backlog` bound, while more than that many
/// bytes of lines are yielded and not yet `took` (the consumer says what it took), the thread
/// stops reading (the server's own bound on a client that does not read applies), so a slow
/// consumer holds at most that much.
public final class AsyncTabulaConnection: Sendable {
    /// The backlog bound `LiveList` sets: 8 MiB.
    public static let mostBacklog = 8 << 20
    /// Every line the server sends, until it closes (or `close`).
    public let lines: AsyncStream<String>
    private let sink: AsyncStream<String>.Continuation
    /// Lines to send; an `NSLock` (a pthread mutex, which the thread sanitizer sees).
    private let outbox = Outbox()
    private let closing = Atomic<Bool>(false)
    /// Written to wake the owning thread: something to send, or to close.
    private let wake: (read: Int32, write: Int32)
    /// Bytes of lines yielded and not yet `took`.
    private let backlog = Atomic<Int>(0)
    /// Signalled when the backlog falls under half its bound while the reader waits.
    private let roomMade = DispatchSemaphore(value: 0)
    private let readerWaits = Atomic<Bool>(false)
    private let ended = Mutex<String?>(nil)
    private let maxLine: Int
    /// Bytes of lines yielded and not yet `took` past which reading stops (nil: no bound,
    /// and `took` need not be called).
    private let backlogBound: Int?

    /// Why the connection ended, when it was not the server's plain close.
    public var endReason: String? { ended.withLock { $0 } }

    /// Connects (on the connection's own thread) and starts reading.
    public static func connect(
        _ endpoint: Endpoint, timeout: Double = 5, maxLine: Int = LineConnection.maxLine, backlog: Int? = nil
    ) async throws -> AsyncTabulaConnection {
        let c = AsyncTabulaConnection(maxLine: maxLine, backlog: backlog)
        try await withCheckedThrowingContinuation { (k: CheckedContinuation<Void, any Error>) in
            let thread = Thread { c.run(endpoint, timeout: timeout, connected: k) }
            thread.name = "tabula-connection"
            thread.start()
        }
        return c
    }

    private init(maxLine: Int, backlog: Int?) {
        self.maxLine = maxLine
        backlogBound = backlog
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        wake = (fds[0], fds[1])
        (lines, sink) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Queues `line` to be sent (a newline is added).
    public func send(_ line: String) {
        outbox.append(line)
        poke()
    }

    /// Closes the connection: `lines` ends.
    public func close() {
        closing.store(true, ordering: .relaxed)
        poke()
        roomMade.signal()
    }

    /// The consumer has taken `line` from `lines`: its bytes leave the backlog.
    public func took(_ line: String) {
        guard let bound = backlogBound else { return }
        let left = backlog.subtract(line.utf8.count + 1, ordering: .relaxed).newValue
        if left < bound / 2, readerWaits.exchange(false, ordering: .relaxed) { roomMade.signal() }
    }

    private func poke() {
        var b: UInt8 = 1
        _ = Glibc.write(wake.write, &b, 1)
    }

    deinit {
        Glibc.close(wake.read)
        Glibc.close(wake.write)
    }

    /// The owning thread: connects, says so, then reads and sends until the end.
    private func run(_ endpoint: Endpoint, timeout: Double, connected: CheckedContinuation<Void, any Error>) {
        defer { sink.finish() }
        let c: LineConnection
        do { c = try LineConnection(endpoint, timeout: timeout) } catch {
            connected.resume(throwing: error)
            return
        }
        c.boundLines(to: maxLine)
        connected.resume()
        var drained = [UInt8](repeating: 0, count: 64)
        while !closing.load(ordering: .relaxed) {
            do {
                for l in outbox.take() { try c.send(l) }
                while let l = try c.readLine(timeout: 3600, interrupt: wake.read) {
                    if c.linesTooLong > 0 {
                        ended.withLock { $0 = "the server sent a line longer than \(maxLine) bytes" }
                        return
                    }
                    sink.yield(l)
                    if let bound = backlogBound, backlog.add(l.utf8.count + 1, ordering: .relaxed).newValue > bound {
                        waitForRoom(bound)
                    }
                }
            } catch ClientError.interrupted {
                _ = Glibc.read(wake.read, &drained, drained.count)
            } catch {
                return
            }
        }
    }
}

extension AsyncTabulaConnection {
    /// Stops reading until the consumer has taken half the backlog (or the connection closes).
    fileprivate func waitForRoom(_ bound: Int) {
        readerWaits.store(true, ordering: .relaxed)
        while backlog.load(ordering: .relaxed) > bound / 2, !closing.load(ordering: .relaxed) {
            roomMade.wait()
            readerWaits.store(true, ordering: .relaxed)
        }
        readerWaits.store(false, ordering: .relaxed)
    }
}

/// Lines waiting to be sent, behind a lock.
private final class Outbox: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }

    func take() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        let out = lines
        lines.removeAll()
        return out
    }
}
