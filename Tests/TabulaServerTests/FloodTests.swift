import Foundation
import Testing
import TabulaClient
import TabulaProtocol
@testable import TabulaServer
import TabulaStorage

/// A pipelined flood of large reads, from a client that does not read its replies, costs the
/// server a bounded amount of memory and holds nobody up. What the server holds is its own
/// count of the output it keeps for clients (not the process's RSS, which the suites running
/// beside these share).
@Suite(.serialized) struct FloodTests {
    /// The output the server holds for its clients, unread, in KiB.
    static func heldKiB(_ s: Server) -> Int {
        (s.loops.first?.stats.unreadOutput.load(ordering: .relaxed) ?? 0) / 1024
    }

    static func addItems(_ c: TabulaConnection, _ n: Int) throws {
        for start in stride(from: 0, to: n, by: 1_000) {
            try c.line.send(
                (0..<1_000).map { "ADD /items item\(start + $0) \(($0 * 7) % 100)" }.joined(separator: "\n"))
            for _ in 0..<1_000 { _ = try c.readReply(timeout: 60) }
        }
    }

    /// Sends 3,000 `LS /items LIMIT 10000` (before: 2,978 of them crashed the server) after
    /// `first`, never reads, and checks another client meanwhile. Returns the most the server
    /// held for its clients meanwhile, in KiB.
    static func flood(_ s: Server, first: String?) throws -> Int {
        let setup = try connect(s)
        try addItems(setup, 20_000)
        let attacker = try rawConnect(s), other = try connect(s)
        var lines = first.map { [$0] } ?? []
        lines += Array(repeating: "LS /items LIMIT 10000", count: 3_000)
        try attacker.sendRaw(Array((lines.joined(separator: "\n") + "\n").utf8))
        var peak = 0
        let end = Date().addingTimeInterval(2)  // a window to sample memory in, not a wait
        while Date() < end {
            // The attacker never reads, so its flood never ends: each answer here is one
            // made while it is pending.
            #expect(try other.request("SHOW /items/1", timeout: 60).isOK)
            peak = max(peak, heldKiB(s))
            usleep(50_000)  // a sampling interval, not a wait for something
        }
        return peak
    }

    @Test func aFloodOfLargeReadsWithoutReadingCostsBoundedMemory() throws {
        try withServer { s in
            let held = try Self.flood(s, first: nil)
            #expect(
                held > 0 && held < 4096,
                "the server held \(held) KiB for a client that does not read (its pause is 256 KiB, then one page)")
        }
    }

    @Test func cachedLargeRepliesCountTowardTheBoundLikeBuiltOnes() throws {
        try withServer({ $0.ioThreads = 1 }) { s in
            let setup = try connect(s)
            try Self.addItems(setup, 20_000)
            #expect(try setup.request("LS /items LIMIT 10000", timeout: 30).isOK)  // now cached
            // Six clients that never read, 128 cached pages each (before: all copied out, 338 MB;
            // now a pause's worth and a page each).
            let attackers = try (0..<6).map { _ in try rawConnect(s) }
            for a in attackers { try a.sendRaw(Array(String(repeating: "LS /items LIMIT 10000\n", count: 128).utf8)) }
            var peak = 0
            let end = Date().addingTimeInterval(2)  // a window to sample memory in, not a wait
            while Date() < end {
                #expect(try setup.request("PING").isOK)
                peak = max(peak, Self.heldKiB(s))
                usleep(50_000)
            }
            #expect(peak > 0 && peak < 6 * 4096, "the server held \(peak) KiB for six clients that do not read")
        }
    }

    @Test func aReplyLargerThanTheOutputLimitReachesAClientThatReads() throws {
        try withServer({ $0.outputLimit = 2 * 1024 * 1024 }) { s in
            let c = try connect(s)
            let name = String(repeating: "n", count: 500)
            for start in stride(from: 0, to: 10_000, by: 1_000) {
                try c.line.send(
                    (0..<1_000).map { "ADD /items \(name)\(start + $0) \($0 % 100)" }.joined(separator: "\n"))
                for _ in 0..<1_000 { _ = try c.readReply(timeout: 60) }
            }
            #expect(try c.request("FORMAT json").isOK)
            let page = try c.request("LS /items LIMIT 10000", timeout: 60)  // about 6 MB: three times the limit
            #expect(page.isOK && page.data.count >= 10_000, "\(page.final.prefix(200))")
            #expect(try c.request("PING").isOK, "still connected")
        }
    }

    @Test func aFloodOfLargeReadsBehindADurableWriteDoesNotHoldTheEngine() throws {
        let store = try SQLiteStore(path: tempDB(), syncFull: false)
        try withServer({ _ in }, store: store) { s in
            let held = try Self.flood(s, first: "ORDER pesto")
            #expect(held > 0 && held < 4096, "the server held \(held) KiB for a client that does not read")
            let w = try connect(s)
            #expect(
                try w.request("ORDER gelato", timeout: 60).isOK,
                "a write must be answered while the unread flood is pending")
        }
    }
}

extension FloodTests {
    @Test func bandsOverManyItemsRunsOnACopyWhileReadsGoOn() throws {
        try withServer { s in
            let a = try connect(s), b = try connect(s)
            try Self.addItems(a, 100_000)
            let state = s.engine.state
            func running() -> Bool { state.reading { _ in state.writesOnEngine } }
            try a.line.send("BANDS Low 30 Mid 60 High")
            // Gate: BANDS is under way on its copy (seconds over 100,000 items in a debug build).
            let deadline = Date().addingTimeInterval(60)
            while !running() && a.line.bufferedLine() == nil && Date() < deadline { sched_yield() }
            #expect(running(), "BANDS was never seen running on its copy")
            // A read that takes the state's lock is answered while BANDS still runs: had BANDS
            // held the lock, the read would have waited for it to finish.
            #expect(try b.request("SHOW /items/1", timeout: 60).isOK)
            #expect(running(), "the read was answered only once BANDS had finished")
            let done = try a.readReply(timeout: 60)
            #expect(done.isOK, "\(done.final)")
            #expect(try b.request("BANDS").final == "OK 3 bands")
            #expect(try b.request("LS /items/mid LIMIT 1").data.first?.contains("item") == true)
        }
    }
}

extension FloodTests {
    /// 400 `WATCH / FROM 0` over 20,000 changes in one write, never read (before: a crash out
    /// of memory): one replay runs at a time, the rest wait unread, others are served.
    @Test func fourHundredReplaysOfTheWholeHistoryInOneWriteCostBoundedMemory() throws {
        try withServer { s in
            let writer = try connect(s)
            for _ in 0..<20 {
                try writer.line.send(Array(repeating: "ORDER pesto", count: 1_000).joined(separator: "\n"))
                for _ in 0..<1_000 { _ = try writer.readReply(timeout: 60) }
            }
            let attacker = try rawConnect(s), other = try connect(s)
            try attacker.sendRaw(Array(String(repeating: "WATCH / FROM 0\n", count: 400).utf8))
            var peak = 0
            let end = Date().addingTimeInterval(2)  // a window to sample memory in, not a wait
            while Date() < end {
                #expect(try other.request("PING", timeout: 60).isOK)  // the unread replays never end
                peak = max(peak, Self.heldKiB(s))
                usleep(50_000)  // a sampling interval, not a wait for something
            }
            #expect(peak < 4096, "the server held \(peak) KiB for a client whose replays it does not read")
            #expect(try writer.request("ORDER gelato").isOK)
        }
    }
}
