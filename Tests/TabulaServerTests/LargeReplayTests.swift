import Foundation
import Testing
import TabulaClient
import TabulaProtocol
import TabulaServer
import TabulaStorage

/// `WATCH … FROM` replays any amount of retained history to a client that reads, in bounded
/// steps, with the live events and later replies after it.
@Suite struct LargeReplayTests {
    /// Adds `n` items named with `size` bytes each, pipelined; returns the last revision.
    static func addItems(_ c: TabulaConnection, _ n: Int, size: Int) throws {
        let batch = 200
        for start in stride(from: 0, to: n, by: batch) {
            let count = min(batch, n - start)
            try c.line.send(
                (0..<count).map { "ADD /items \(String(repeating: "n", count: size - 8))\(start + $0 + 10_000_000) 5" }
                    .joined(separator: "\n"))
            for _ in 0..<count { #expect(try c.readReply(timeout: 60).isOK) }
        }
    }

    @Test func aClientThatReadsReplaysAHundredMegabytesOfHistoryThenGoesLive() throws {
        // memory holds it all (the default 64 MiB would not)
        try withServer({ $0.historyBytesInMemory = 256 << 20 }) { s in
            let writer = try connect(s), watcher = try connect(s), other = try connect(s)
            let n = 6_500, size = 16 * 1024  // 6,500 events of 16 KiB: 106 MB, 13 times the output limit
            try Self.addItems(writer, n, size: size)
            try watcher.line.send("WATCH / FROM 0")
            try watcher.line.send("PING after")
            let ack = try watcher.line.readLine(timeout: 30)
            #expect(ack == "OK watching / at rev \(n); replaying \(n) events")
            var bytes = 0
            var next: UInt64 = 1
            var wroteLive = false
            while next <= UInt64(n) {
                guard let l = try watcher.line.readLine(timeout: 30) else { break }
                bytes += l.utf8.count + 1
                guard TabulaConnection.revision(of: l) == next else {
                    Issue.record("expected event \(next), got \(l.prefix(60))")
                    return
                }
                next += 1
                if !wroteLive && next > 100 {
                    // Live traffic during the replay (this watcher has read only 100 of its
                    // events): answered meanwhile, and pushed after the replay.
                    wroteLive = true
                    #expect(try other.request("ORDER pesto", timeout: 60).isOK)
                }
            }
            #expect(next == UInt64(n) + 1)
            #expect(bytes > 100_000_000)
            #expect(try watcher.line.readLine(timeout: 30) == "* SYNCED \(n)", "the replay's end is marked")
            let live = try #require(try watcher.line.readLine(timeout: 30))
            #expect(TabulaConnection.revision(of: live) == UInt64(n) + 1)
            #expect(try watcher.line.readLine(timeout: 30) == "OK after")
        }
    }

    @Test func aReplayOlderThanMemoryIsReadFromTheStoreUnderItsPrefix() throws {
        let store = try SQLiteStore(path: tempDB(), syncFull: false)
        try withServer({ $0.historyInMemory = 100 }, store: store) { s in
            let c = try connect(s)
            for start in stride(from: 0, to: 3_000, by: 500) {
                try c.line.send(
                    (0..<500).map { (start + $0) % 2 == 0 ? "ORDER pesto" : "ADD /items x\(start + $0) 5" }.joined(
                        separator: "\n"))
                for _ in 0..<500 { #expect(try c.readReply(timeout: 60).isOK) }
            }
            let w = try connect(s)
            #expect(
                try w.request("WATCH /orders FROM 0").final == "OK watching /orders at rev 3000; replaying 1500 events")
            var revs: [UInt64] = []
            while revs.count < 1_500, let l = try w.line.readLine(timeout: 30) {
                revs.append(TabulaConnection.revision(of: l) ?? 0)
            }
            #expect(revs == Array(stride(from: 1, through: 2_999, by: 2)))
            #expect(try w.request("PING").final == "OK PONG")
        }
    }

    @Test func aTextReplayReadFromTheStoreIsTheLinesItsEventsWereSentLive() throws {
        let store = try SQLiteStore(path: tempDB(), syncFull: false)
        try withServer({ $0.historyInMemory = 50 }, store: store) { s in
            let live = try rawConnect(s), c = try connect(s)
            try live.send("WATCH /")
            #expect(try live.readLine(timeout: 10)?.hasPrefix("OK watching / at rev 0") == true)
            let writes = (0..<300).map { k in
                [
                    "ORDER pesto", "ADD /items \"lamp \(k)\" \(k % 90 + 1)", "FAV /items/\(k % 4 + 1)",
                    "RM /orders/\(k / 4 + 1)",
                    "SELECT /settings/my-int #\(k % 4 + 1)", "SET /items/\(k % 4 + 1) value=\(k % 70 + 1)",
                ][k % 6]
            }
            for w in writes { _ = try c.request(w) }  // some refused (an order already removed): no event
            let head = try stat(c, "revision")
            #expect(head > 250)
            var sent: [String] = []
            while sent.count < head, let l = try live.readLine(timeout: 10) { sent.append(l) }
            // All but the last 50 are older than memory holds: read from SQLite, summaries alone.
            let replay = try rawConnect(s)
            try replay.send("WATCH / FROM 0")
            #expect(try replay.readLine(timeout: 10) == "OK watching / at rev \(head); replaying \(head) events")
            var replayed: [String] = []
            while replayed.count < head, let l = try replay.readLine(timeout: 10) { replayed.append(l) }
            #expect(replayed == sent)
        }
    }

    @Test func aReplayPastWhatIsRetainedIsRefusedAndAddsNoWatch() throws {
        try withServer({ $0.historyInMemory = 10 }) { s in
            let c = try connect(s)
            for _ in 0..<30 { #expect(try c.request("ORDER pesto").isOK) }
            let r = try c.request("WATCH /orders FROM 5")
            #expect(r.reply.error?.code == .expired)
            #expect(r.reply.error?.message.contains("the oldest revision held is 21") == true)
            #expect(try c.request("UNWATCH").final == "OK 0 removed")
        }
    }
}

/// A replay overtaken by the history's trimming ends with a BYE that names a way on which
/// the server will take.
@Suite struct OvertakenReplayTests {
    @Test func aReplayThatTheHistoryMovesPastAdvisesAResyncNotAnExpiredFrom() throws {
        try withServer({
            $0.historyInMemory = 2_000
            $0.historyBytesInMemory = 64 << 20
        }) { s in
            let writer = try connect(s)
            try LargeReplayTests.addItems(writer, 2_000, size: 4 * 1024)  // 8 MB: more than sockets take
            let watcher = try rawConnect(s)
            try watcher.send("WATCH / FROM 0")
            #expect(try watcher.readLine(timeout: 30)?.hasPrefix("OK watching / at rev 2000; replaying") == true)
            try LargeReplayTests.addItems(writer, 2_000, size: 64)  // the history moves past the replay
            var bye: String?
            while bye == nil, let l = try watcher.readLine(timeout: 30) { if l.hasPrefix("* BYE") { bye = l } }
            #expect(bye?.contains("history moved past revision") == true, "\(bye ?? "no BYE")")
            #expect(bye?.contains("reconnect and WATCH / SNAPSHOT") == true, "\(bye ?? "no BYE")")
            #expect(bye?.contains(" FROM ") == false || bye?.contains("without FROM") == true)
        }
    }

    /// A replay to a client that does not read stops once the kernel holds what it sent
    /// (about a page, 64 KiB queued and the client's small receive buffer), never encoding
    /// the history into socket buffers nobody reads; once the client reads, it goes on to
    /// the end, every event once and in order.
    @Test func aReplayToAClientThatDoesNotReadStopsAtAboutAPageAndGoesOnWhenItReads() throws {
        try withServer({ $0.historyBytesInMemory = 256 << 20 }) { s in
            let writer = try connect(s), admin = try connect(s)
            let n = 20_000
            try LargeReplayTests.addItems(writer, n, size: 200)  // 20,000 events of about 300 bytes: 6 MB
            let slow = try rawConnect(s)
            try slow.send("WATCH / FROM 0")
            var most: UInt64 = 0
            // For a second and a half: its cursor, as CLIENTS shows it, stays within about
            // 900 KB of events (3,000 of them; the kernel's buffers take a few hundred KB).
            let deadline = Date().addingTimeInterval(1.5)
            while Date() < deadline {
                let rows = try admin.request("CLIENTS").data
                for r in rows {
                    if let m = r.range(of: "replay=") {
                        most = max(most, UInt64(r[m.upperBound...].prefix { $0.isNumber }) ?? 0)
                    }
                }
                _ = try admin.request("PING")
            }
            #expect(most > 0 && most < 3_000, "a replay to a client that does not read reached event \(most) of \(n)")
            var next: UInt64 = 1
            while next <= UInt64(n), let l = try slow.readLine(timeout: 30) {
                guard let rev = TabulaConnection.revision(of: l) else { continue }
                #expect(rev == next, "expected event \(next), got \(rev)")
                next = rev + 1
            }
            #expect(next == UInt64(n) + 1, "the replay stopped at \(next - 1) of \(n) once the client read")
        }
    }
}
