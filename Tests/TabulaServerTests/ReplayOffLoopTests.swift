import Foundation
import Testing
import TabulaClient
@testable import TabulaServer
import TabulaStorage

/// A replay that reads the store does so on the replay reader's thread: its loop's other
/// clients are answered meanwhile, however slow the store.
@Suite struct ReplayOffLoopTests {
    /// One I/O loop over a SQLite store whose history reads stop at `gate` (memory keeps the
    /// last 10 changes, so a replay from 0 reads the store), after `orders` changes by `writer`.
    static func withGatedStore(orders: Int, _ body: (Server, HistoryGate, TabulaConnection) throws -> Void) throws {
        let gate = HistoryGate()
        let store = GatedHistoryStore(try SQLiteStore(path: tempDB(), syncFull: false), gate: gate)
        try withServer(
            {
                $0.ioThreads = 1; $0.historyInMemory = 10
            }, store: store
        ) { s in
            defer { gate.open() }
            let writer = try connect(s)
            try writer.line.send(Array(repeating: "ORDER pesto", count: orders).joined(separator: "\n"))
            for _ in 0..<orders { #expect(try writer.readReply(timeout: 30).isOK) }
            try body(s, gate, writer)
        }
    }

    @Test func aClientOnTheLoopOfAReplayHeldInAStoreReadIsAnsweredMeanwhile() throws {
        try Self.withGatedStore(orders: 200) { s, gate, writer in
            let replayer = try rawConnect(s)
            try replayer.send("WATCH /orders FROM 0")  // memory holds the last 10: the store is read
            #expect(gate.awaitRead(seconds: 30), "the replay never read the store")
            // The store read is held at the gate: a loop that made it would answer nobody now.
            for _ in 0..<5 { #expect(try writer.request("PING", timeout: 30).isOK) }
            gate.open()
            let ack = try #require(try replayer.readLine(timeout: 30))
            #expect(ack == "OK watching /orders at rev 200; replaying 200 events")
            var events = 0
            while events < 200, let l = try replayer.readLine(timeout: 30) {
                if l.hasPrefix("* EVENT ") { events += 1 }
            }
            #expect(events == 200)
        }
    }

    @Test func replayStepsReadFromTheStoreAreTakenWithinTheLoopTurnsBudget() throws {
        try Self.withGatedStore(orders: 500) { s, gate, writer in
            // 100 replays that never read, their store reads piled up at the gate: opened, the
            // reader answers them all at once (before: a loop encoded them all in one turn).
            let replayers = try (0..<100).map { _ in try rawConnect(s) }
            for r in replayers { try r.send("WATCH /orders FROM 0") }
            #expect(gate.awaitRead(seconds: 30), "no replay read the store")
            #expect(try writer.request("PING", timeout: 30).isOK)  // the loop has read the WATCHes
            gate.open()
            let stats = s.loops[0].stats
            let deadline = Date().addingTimeInterval(30)
            // polls a real count
            while stats.replaySteps.load(ordering: .relaxed) < 200 && Date() < deadline { usleep(1_000) }
            #expect(stats.replaySteps.load(ordering: .relaxed) >= 200, "the replays never got going")
            let most = stats.replayStepsMostInATurn.load(ordering: .relaxed)
            #expect(most <= EventLoop.replayStepsPerTurn, "a turn took \(most) replay steps")
            #expect(try writer.request("PING", timeout: 30).isOK)
        }
    }
}
