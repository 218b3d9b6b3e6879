import Foundation
import Testing
import TabulaClient
import TabulaServer

/// Unread output has one bound for the whole server (`maxUnreadOutput`): past it the
/// connections that stopped reading are dropped, the most unread first, and a client that
/// reads goes on being answered.
@Suite(.serialized) struct UnreadOutputTests {
    static let bound = 8 * 1024 * 1024

    /// A STATS counter, waiting as long as building the attackers' pages may take (minutes
    /// under the thread sanitizer): a reply that came after a shorter wait would be taken
    /// for the next request's.
    static func counter(_ c: TabulaConnection, _ name: String) throws -> Int {
        let r = try c.request("STATS", timeout: 120)
        for d in r.data where d.hasPrefix(name + ": ") { return Int(d.dropFirst(name.count + 2)) ?? -1 }
        return -1
    }

    /// About 10 MB a page: 10,000 items with 1,000-byte names.
    static func addLongItems(_ c: TabulaConnection) throws {
        let name = String(repeating: "n", count: 1_000)
        for start in stride(from: 0, to: 10_000, by: 1_000) {
            try c.line.send((0..<1_000).map { "ADD /items \(name)\(start + $0) \($0 % 100)" }.joined(separator: "\n"))
            for _ in 0..<1_000 { _ = try c.readReply(timeout: 60) }
        }
    }

    /// A server with the bound and one loop, ~10 MB pages, and twelve connections that each
    /// ask for a different page at once and never read (the loop reads them in one turn):
    /// `body` runs once at least four of them were dropped, with a client that reads.
    static func withStalledPages(_ body: (TabulaConnection, [LineConnection]) throws -> Void) throws {
        try withServer({
            $0.maxUnreadOutput = bound
            $0.ioThreads = 1
        }) { s in
            let reader = try connect(s)
            try addLongItems(reader)
            let attackers = try (0..<12).map { _ in try rawConnect(s) }
            for (k, a) in attackers.enumerated() { try a.sendRaw(Array("LS /items LIMIT 10000 AFTER \(k + 1)\n".utf8)) }
            #expect(try eventually(timeout: 120) { try counter(reader, "slow_consumers_dropped") >= 4 })
            try body(reader, attackers)
        }
    }

    @Test func connectionsThatNeverReadLargePagesAreDroppedOnceTheServersUnreadOutputPassesItsBound() throws {
        try Self.withStalledPages { reader, attackers in
            // What is held now: under the bound and at most one more page of about 10 MB.
            let held = try Self.counter(reader, "unread_output_bytes")
            #expect(held <= Self.bound + 11 * 1024 * 1024, "\(held) bytes unread")
            #expect(try reader.request("PING", timeout: 120).final == "OK PONG")
            // The dropped ones are closed (mid-line, so without a BYE): reading, they reach the end.
            let closed = attackers.filter { a in
                while (try? a.readLine(timeout: 2)) != nil {}
                return a.isClosed
            }
            #expect(closed.count >= 4)
        }
    }

    @Test func theServerHoldsAtMostTheBoundAndOnePageWhileConnectionsThatNeverReadAskForLargePages() throws {
        try Self.withStalledPages { reader, _ in
            let peak = try Self.counter(reader, "unread_output_peak_bytes")
            #expect(peak > Self.bound, "the attack passed the bound: \(peak) bytes at most")
            #expect(peak <= Self.bound + 11 * 1024 * 1024, "\(peak) bytes unread at most")
        }
    }

    @Test func watchersThatNeverReadAreDroppedOnceTogetherTheyPassTheBoundThoughEachHoldsLessThanThePause() throws {
        let bound = 1024 * 1024, watchers = 16
        try withServer({
            $0.maxUnreadOutput = bound
            $0.ioThreads = 1
        }) { s in
            let writer = try connect(s)
            let stalled = try (0..<watchers).map { _ in try rawConnect(s) }
            for w in stalled {
                try w.sendRaw(Array("WATCH /items\n".utf8))
                #expect(try w.readLine(timeout: 10)?.hasPrefix("OK") == true)
            }
            // Each event is ~30 KB to each watcher: together they pass 1 MiB long before any
            // one of them holds the 256 KiB pause.
            let name = String(repeating: "w", count: 30_000)
            var dropped = 0
            for k in 0..<400 where dropped < watchers {
                #expect(try writer.request("ADD /items \(name)\(k) 5", timeout: 60).isOK)
                dropped = try Self.counter(writer, "slow_consumers_dropped")
            }
            #expect(dropped == watchers, "\(dropped) of \(watchers) watchers dropped")
            let peak = try Self.counter(writer, "unread_output_peak_bytes")
            #expect(peak <= 2 * bound, "\(peak) bytes unread at most")
            #expect(try writer.request("PING").final == "OK PONG")
        }
    }

    @Test func aClientThatReadsItsLargePagesIsNeverDroppedForTheBound() throws {
        // The bound is what the server holds beyond one reply: here larger than one ~10 MB
        // page (the kernel takes only 128 KiB ahead of a reader, so a page waits here while
        // it is read; with an 8 MiB bound the reader's own page was over it).
        try withServer({ $0.maxUnreadOutput = 2 * Self.bound }) { s in
            let reader = try connect(s)
            try Self.addLongItems(reader)
            for k in 0..<3 { #expect(try reader.request("LS /items LIMIT 10000 AFTER \(k + 1)", timeout: 60).isOK) }
            #expect(try Self.counter(reader, "slow_consumers_dropped") == 0)
        }
    }
}
