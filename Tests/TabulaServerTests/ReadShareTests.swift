import Testing

@testable import TabulaServer

/// What a loop reads from a readable connection, by what it has read this turn.
@Suite struct ReadShareTests {
    @Test func withinTheTurnsBudgetAConnectionIsReadAFullBuffer() {
        #expect(ReadShare.bytes(readThisTurn: 0, inLine: false) == ReadShare.full)
        #expect(ReadShare.bytes(readThisTurn: ReadShare.budget - 1, inLine: false) == ReadShare.full)
    }

    @Test func pastTheBudgetAConnectionNotInLineIsStillReadALittleThisTurn() {
        // A client sending one request while heavy senders spent the budget is answered now.
        #expect(ReadShare.bytes(readThisTurn: ReadShare.budget, inLine: false) == ReadShare.past)
        #expect(ReadShare.bytes(readThisTurn: 50 * ReadShare.budget, inLine: false) == ReadShare.past)
        #expect(ReadShare.past > 0 && ReadShare.past <= 4_096)
    }

    @Test func aConnectionAlreadyInLineWaitsForTheNextTurn() {
        #expect(ReadShare.bytes(readThisTurn: 0, inLine: true) == 0)
        #expect(ReadShare.bytes(readThisTurn: ReadShare.budget, inLine: true) == 0)
    }

    @Test func aSmallReadThatFilledItsShareGoesInLineAndOneThatDidNotIsDone() {
        #expect(ReadShare.leftMore(read: ReadShare.past, allowed: ReadShare.past))
        #expect(!ReadShare.leftMore(read: 14, allowed: ReadShare.past))
        #expect(!ReadShare.leftMore(read: ReadShare.full, allowed: ReadShare.full), "epoll reports it again")
    }

    @Test func aTurnReadsAtMostTheBudgetABufferAndALittlePerReadinessEvent() {
        let events = 256  // epoll_wait's room a turn
        var read = 0
        for _ in 0..<events {
            read += ReadShare.bytes(readThisTurn: read, inLine: false)
        }
        #expect(read <= ReadShare.budget + ReadShare.full + events * ReadShare.past)
    }
}
