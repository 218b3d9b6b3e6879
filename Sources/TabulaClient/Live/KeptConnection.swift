import Foundation
import Synchronization
import TabulaProtocol

/// One connection kept for a `LiveList`'s writes, logged in once: made at the first write
/// (and after a write found it broken), used by one write at a time, on a serial queue of
/// its own (so a burst of writes waits in line, on one thread). Not a connection per write:
/// with logins each would cost a slow hash and count against the server's login limits. A
/// write whose connection breaks is not sent again (it may have been applied): its error is
/// thrown, and the next write connects anew.
final class KeptConnection: Sendable {
    private let endpoint: Endpoint
    private let credentials: Credentials?
    /// The list's FILTER, set on the connection after its login: a write's positions (`MV`)
    /// count as the list's copy shows them.
    private let filter: ItemFilter
    private let queue = DispatchQueue(label: "tabula-livelist-writes")
    /// The connection: touched only on `queue`, one write at a time.
    nonisolated(unsafe) private var connection: TabulaConnection?
    private let connectionsMade = Atomic<Int>(0)

    init(_ endpoint: Endpoint, credentials: Credentials?, filter: ItemFilter = .all) {
        self.endpoint = endpoint
        self.credentials = credentials
        self.filter = filter
    }

    /// Connections made, for tests and the curious.
    var made: Int { connectionsMade.load(ordering: .relaxed) }

    /// Sends `line` and returns its reply, on the kept connection (on `queue`: blocks).
    private func request(_ line: String) throws -> ServerReply {
        dispatchPrecondition(condition: .onQueue(queue))
        do {
            if connection == nil {
                let c = try TabulaConnection(endpoint)
                connectionsMade.add(1, ordering: .relaxed)
                if let credentials { try c.authenticate(credentials) }
                if filter == .favorites {
                    let r = try c.request("FILTER favorites")
                    guard r.isOK else { throw ClientError.refused("the server refused FILTER favorites: \(r.final)") }
                }
                connection = c
            }
            return try connection!.request(line)
        } catch {
            connection = nil
            throw error
        }
    }

    /// Sends `line` after the writes before it, off the caller's actor.
    func send(_ line: String) async throws -> ServerReply {
        try await withCheckedThrowingContinuation { k in
            queue.async {
                do { k.resume(returning: try self.request(line)) } catch { k.resume(throwing: error) }
            }
        }
    }
}
