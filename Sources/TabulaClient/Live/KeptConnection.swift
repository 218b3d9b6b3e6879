import Foundation

/// One connection kept for a `LiveList`'s writes, logged in once: made at the first write
/// (and after a write found it broken), used by one write at a time. Not a connection per
/// write: with logins each would cost a slow hash and count against the server's login
/// limits. A write whose connection breaks is not sent again (it may have been applied):
/// its error is thrown, and the next write connects anew. An `NSLock` (a pthread mutex,
/// which the thread sanitizer sees) guards the connection.
final class KeptConnection: @unchecked Sendable {
    private let endpoint: Endpoint
    private let credentials: Credentials?
    private let lock = NSLock()
    private var connection: TabulaConnection?
    /// Connections made, for tests and the curious.
    private(set) var made = 0

    init(_ endpoint: Endpoint, credentials: Credentials?) {
        self.endpoint = endpoint
        self.credentials = credentials
    }

    /// Sends `line` and returns its reply, on the kept connection (blocks: call it off the
    /// main actor).
    func request(_ line: String) throws -> ServerReply {
        lock.lock()
        defer { lock.unlock() }
        do {
            if connection == nil {
                let c = try TabulaConnection(endpoint)
                made += 1
                if let credentials { try c.authenticate(credentials) }
                connection = c
            }
            return try connection!.request(line)
        } catch {
            connection = nil
            throw error
        }
    }

    /// Sends `line` from a thread of its own, so that the caller's actor goes on meanwhile.
    func send(_ line: String) async throws -> ServerReply {
        try await withCheckedThrowingContinuation { k in
            Thread.detachNewThread {
                do { k.resume(returning: try self.request(line)) } catch { k.resume(throwing: error) }
            }
        }
    }
}
