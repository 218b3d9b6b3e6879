import Foundation
import Testing
import TabulaClient
import TabulaServer
import TabulaStorage

/// A replay that reads the store does so on the replay reader's thread: its loop's other
/// clients are answered meanwhile, however slow the store.
@Suite struct ReplayOffLoopTests {
    @Test func aClientOnTheLoopOfAReplayReadingASlowStoreIsAnsweredAtOnce() throws {
        let store = SlowHistoryStore(try SQLiteStore(path: tempDB(), syncFull: false), delay: 0.3)
        try withServer({ $0.ioThreads = 1; $0.historyInMemory = 10 }, store: store) { s in
            let writer = try connect(s)
            try writer.line.send(Array(repeating: "ORDER pesto", count: 200).joined(separator: "\n"))
            for _ in 0..<200 { #expect(try writer.readReply(timeout: 30).isOK) }
            let replayer = try rawConnect(s)
            try replayer.send("WATCH /orders FROM 0")  // memory holds the last 10: the store is read
            var waits: [Double] = []
            for _ in 0..<5 {
                let start = Date()
                #expect(try writer.request("PING").isOK)
                waits.append(Date().timeIntervalSince(start))
            }
            #expect(waits.max()! < 0.25, "PINGs on the replay's loop waited \(waits) s while each store read takes 0.3 s")
            let ack = try #require(try replayer.readLine(timeout: 30))
            #expect(ack == "OK watching /orders at rev 200; replaying 200 events")
            var events = 0
            while events < 200, let l = try replayer.readLine(timeout: 30) { if l.hasPrefix("* EVENT ") { events += 1 } }
            #expect(events == 200)
        }
    }
}
