import Foundation
import Testing
import TabulaClient
import TabulaServer

/// Order without exceptions, on both kinds of store: a connection's own events never
/// overtake the replies to its earlier lines (a watch's OK included), events reach a watcher
/// in revision order with several writers, and STATS in a pipelined batch is consistent.
@Suite struct OrderTests {
    static let stores = ["memory", "sqlite"]

    /// Lines read from `c` until `count` final lines (OK/ERR) have come.
    static func lines(_ c: LineConnection, finals count: Int) throws -> [String] {
        var out: [String] = []
        var finals = 0
        while finals < count {
            guard let l = try c.readLine(timeout: 30) else { break }
            out.append(l)
            if l.hasPrefix("OK") || l.hasPrefix("ERR") { finals += 1 }
        }
        return out
    }

    @Test(arguments: stores)
    func aWatchsOKComesBeforeTheEventsOfTheLinesAfterIt(_ kind: String) throws {
        try withServer(store: try makeStore(kind)) { s in
            let c = try rawConnect(s)
            try c.sendRaw(Array("WATCH /orders\nORDER pesto\nORDER gelato\n".utf8))
            let kinds = try Self.lines(c, finals: 3).map { String($0.prefix(9)) }
            #expect(
                kinds == ["OK watchi", "* EVENT 1", "- 1  Pest", "OK order ", "* EVENT 2", "- 2  Gela", "OK order "])
        }
    }

    @Test(arguments: stores)
    func aWritersOwnEventsComeJustBeforeTheirRepliesAndAllInRevisionOrderWithOtherWriters(_ kind: String) throws {
        try withServer(store: try makeStore(kind)) { s in
            let watcher = try rawConnect(s)
            try watcher.send("WATCH /orders")
            #expect(try watcher.readLine(timeout: 10)?.hasPrefix("OK watching") == true)
            let others = try (0..<2).map { _ in try rawConnect(s) }
            let n = 100
            let batch = Array(String(repeating: "ORDER pesto\n", count: n).utf8)
            for o in others { try o.sendRaw(batch) }
            try watcher.sendRaw(batch)
            let stream = try Self.lines(watcher, finals: n)
            var lastRev: UInt64 = 0
            var lastEvent: UInt64?
            for l in stream {
                if l.hasPrefix("* EVENT ") {
                    let rev = UInt64(l.split(separator: " ")[2])!
                    #expect(rev > lastRev, "event \(rev) after \(lastRev)")
                    lastRev = rev
                    lastEvent = rev
                } else if l.hasPrefix("OK ") {
                    let rev = UInt64(l.split(separator: "=").last!)!
                    #expect(
                        lastEvent == rev,
                        "the OK of rev \(rev) follows its own event (last event \(lastEvent.map(String.init) ?? "none"))"
                    )
                    lastEvent = nil
                }
            }
            for o in others { _ = try Self.lines(o, finals: n) }
        }
    }

    @Test(arguments: stores)
    func statsAfterChangesInOnePipelinedBatchIsConsistent(_ kind: String) throws {
        try withServer(store: try makeStore(kind)) { s in
            let c = try rawConnect(s)
            try c.sendRaw(Array("ORDER pesto\nORDER pesto\nSTATS\n".utf8))
            let rows = try Self.lines(c, finals: 3)
            func field(_ name: String) -> Int? {
                rows.first { $0.hasPrefix("- \(name): ") }.flatMap { Int($0.split(separator: " ").last!) }
            }
            let (rev, oldest) = (try #require(field("revision")), try #require(field("history_oldest")))
            #expect(rev == 2 && oldest <= rev, "revision \(rev), history_oldest \(oldest)")
        }
    }

    /// One loop (writer and watcher on it: the write completes on the loop, its event queued
    /// at once) and two (the event posted to the other loop's inbox).
    @Test(arguments: [1, 2])
    func onceAWriterHoldsItsOKAWatcherGetsTheEventBeforeTheReplyToWhatItSendsNext(_ loops: Int) throws {
        try withServer({ $0.ioThreads = loops }) { s in
            let watcher = try rawConnect(s)
            try watcher.send("WATCH /items")
            #expect(try watcher.readLine(timeout: 10)?.hasPrefix("OK watching") == true)
            let writer = try rawConnect(s)
            for k in 1...50 {
                try writer.send("FAV /items/\(k % 4 + 1)")
                let ok = try Self.lines(writer, finals: 1).last ?? ""
                let rev = try #require(ok.split(separator: "=").last.map(String.init), "the write's OK: \(ok)")
                // The writer holds its OK: whatever the watcher sends now is answered after the event.
                try watcher.send("PING \(k)")
                let seen = try Self.lines(watcher, finals: 1)
                let event = seen.firstIndex { $0.hasPrefix("* EVENT \(rev) fav /items/\(k % 4 + 1) ") }
                #expect(event != nil && seen.last == "OK \(k)", "write \(k) (rev \(rev)): the watcher read \(seen)")
            }
        }
    }
}
