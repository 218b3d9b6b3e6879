import Foundation
import Synchronization

/// A line-protocol connection for async code: the lines the server sends as an
/// `AsyncStream` (replies and pushes, in order, without line endings), and `send`. One
/// thread of its own owns the socket (it reads, and writes what `send` queued), so the
/// connection is used from any task, TLS included, without two threads in one socket.
public final class AsyncTabulaConnection: Sendable {
    /// Every line the server sends, until it closes (or `close`).
    public let lines: AsyncStream<String>
    private let outbox = Mutex<[String]>([])
    private let closing = Atomic<Bool>(false)
    /// Written to wake the owning thread: something to send, or to close.
    private let wake: (read: Int32, write: Int32)

    /// Connects (off the caller's thread) and starts reading.
    public static func connect(_ endpoint: Endpoint, timeout: Double = 5) async throws -> AsyncTabulaConnection {
        let box = try await withCheckedThrowingContinuation { (k: CheckedContinuation<LineBox, any Error>) in
            Thread.detachNewThread {
                do { k.resume(returning: LineBox(try LineConnection(endpoint, timeout: timeout))) } catch { k.resume(throwing: error) }
            }
        }
        return AsyncTabulaConnection(box)
    }

    private init(_ box: LineBox) {
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        wake = (fds[0], fds[1])
        var cont: AsyncStream<String>.Continuation!
        lines = AsyncStream(bufferingPolicy: .unbounded) { cont = $0 }
        let continuation = cont!
        let thread = Thread { [self] in
            run(box.line, continuation)
        }
        thread.name = "tabula-connection"
        thread.start()
    }

    /// Queues `line` to be sent (a newline is added).
    public func send(_ line: String) {
        outbox.withLock { $0.append(line) }
        poke()
    }

    /// Closes the connection: `lines` ends.
    public func close() {
        closing.store(true, ordering: .relaxed)
        poke()
    }

    private func poke() {
        var b: UInt8 = 1
        _ = Glibc.write(wake.write, &b, 1)
    }

    deinit {
        Glibc.close(wake.read)
        Glibc.close(wake.write)
    }

    private func run(_ c: LineConnection, _ out: AsyncStream<String>.Continuation) {
        defer { out.finish() }
        var drained = [UInt8](repeating: 0, count: 64)
        while !closing.load(ordering: .relaxed) {
            let queued = outbox.withLock { q in
                defer { q.removeAll() }
                return q
            }
            do {
                for l in queued { try c.send(l) }
                while let l = try c.readLine(timeout: 3600, interrupt: wake.read) { out.yield(l) }
            } catch ClientError.interrupted {
                _ = Glibc.read(wake.read, &drained, drained.count)
            } catch {
                return
            }
        }
    }
}

/// A connection handed from the thread that made it to the one that owns it.
private final class LineBox: @unchecked Sendable {
    let line: LineConnection
    init(_ line: LineConnection) { self.line = line }
}
