import Foundation

/// Learning whether a transaction committed after the connection broke during its COMMIT:
/// PostgreSQL keeps every recent transaction's fate (`txid_status`), so a node that reads its
/// transaction's id inside it can ask again on a new connection.
enum CommitOutcome {
    /// How long a node tries, in all (PostgreSQL must come back within it).
    static let wait = 2.0

    /// True: committed (and `confirming`, when given, ran after it: the durable step, so that
    /// a commit made without waiting for its flush is flushed before anyone is told);
    /// false: aborted; nil: not learned within `wait` (PostgreSQL still unreachable, or the
    /// transaction too old to be known).
    static func of(_ txid: UInt64, conninfo: String, confirming: String? = nil) -> Bool? {
        let deadline = Date().addingTimeInterval(wait)
        repeat {
            if let c = try? PGConnection(conninfo, name: "tabulad-outcome") {
                defer { c.close() }
                if let r = try? c.exec("SELECT txid_status(\(txid))", timeout: 1) {
                    switch r.text(0, 0) {
                    case "committed":
                        if let confirming, (try? c.exec(confirming, timeout: 1)) == nil { break }
                        return true
                    case "aborted": return false
                    case "in progress": break  // the old session is still finishing it: ask again
                    default: return nil
                    }
                }
            }
            usleep(100_000)
        } while Date() < deadline
        return nil
    }
}

/// The connection to PostgreSQL broke during a commit and the node could not learn in time
/// whether the transaction committed: the change may or may not be in the store.
public struct CommitOutcomeUnknown: Error, CustomStringConvertible, Sendable {
    /// The transaction's id, for an operator (`SELECT txid_status(N)`).
    public let txid: UInt64
    /// Why the commit failed.
    public let cause: String
    public var description: String {
        "PostgreSQL was lost during the commit (\(cause)) and did not come back within \(Int(CommitOutcome.wait)) s to say whether transaction \(txid) committed"
    }
}
