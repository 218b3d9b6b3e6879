/// How much a loop reads from one readable connection now, from what the loop has read this
/// turn. Within the turn's budget, a full buffer. Past it, a little (a request or a few), so
/// that a client sending a line is answered in the turn it arrives, not after every heavy
/// sender already waiting in line; whoever has more is then read first in the next turn, in
/// the order left. Nothing for a connection already in that line. A turn thus reads at most
/// the budget, a buffer, and a little per readiness event (256 a turn: 1 MiB; a TLS
/// connection reads a record at a time, 16 KiB at most, `readTLS`). Pure.
struct ReadShare {
    /// Bytes a loop reads in one turn, all connections together, before it reads only a
    /// little from each (Redis reads 16 KiB a client a turn, with no total).
    static let budget = 256 * 1024
    /// A read's size within the budget: the loop's buffer.
    static let full = 64 * 1024
    /// A read's size past the budget.
    static let past = 4 * 1024

    /// The bytes to read from a connection now (0: it waits in line for the next turn).
    static func bytes(readThisTurn: Int, inLine: Bool) -> Int {
        if inLine { return 0 }
        return readThisTurn < budget ? full : past
    }

    /// Whether a read of `n` bytes, allowed `allowed`, may have left more unread: it filled
    /// what it was allowed, past the budget (the connection then waits in line).
    static func leftMore(read n: Int, allowed: Int) -> Bool { allowed == past && n == allowed }
}
