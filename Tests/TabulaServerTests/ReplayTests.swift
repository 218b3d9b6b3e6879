import Testing
import TabulaClient
import TabulaModel
import TabulaProtocol

@testable import TabulaServer

/// A retained history in an array: events 1...newest, of which revisions up to `trimmed`
/// are gone.
final class ArrayHistory: RetainedHistory {
    var events: [Event]
    var trimmed: UInt64 = 0
    var calls = 0
    init(_ paths: [String]) {
        events = paths.enumerated().map {
            Event(rev: UInt64($0.offset + 1), kind: "put", path: $0.element, summary: "", value: .null)
        }
    }
    private func window(_ after: UInt64, _ through: UInt64, _ prefix: String) throws(HistoryGap) -> [Event] {
        calls += 1
        guard after >= trimmed else { throw HistoryGap(oldest: trimmed + 1) }
        // Under a list's own path a step may span the whole range: the history is read by
        // list, and what it returns is bounded (by the count's limit, by a page).
        #expect(
            ModelPath.isTopLevel(prefix) || through - after <= Replay.window, "a step looked at more than one window")
        return events.filter { $0.rev > after && $0.rev <= through && ModelPath.isUnder($0.path, prefix: prefix) }
    }
    func check(after: UInt64) throws(HistoryGap) {
        guard after >= trimmed else { throw HistoryGap(oldest: trimmed + 1) }
    }
    func count(after: UInt64, through: UInt64, under prefix: String, limit: Int) throws(HistoryGap) -> (
        count: Int, through: UInt64
    ) {
        let all = try window(after, through, prefix)
        return all.count >= limit ? (limit, all[limit - 1].rev) : (all.count, through)
    }
    func events(after: UInt64, through: UInt64, under prefix: String, limit: Int, bytes: Int, payload: Bool)
        throws(HistoryGap) -> [Event]
    {
        var size = 0
        var out: [Event] = []
        for e in try window(after, through, prefix) where out.count < limit && size < bytes {
            out.append(e)
            size += e.size
        }
        return out
    }
}

@Suite struct ReplayTests {
    static func plan(_ prefix: String, after: UInt64, through: UInt64) -> ReplayPlan {
        ReplayPlan(prefix: prefix, after: after, through: through, rev: through, tag: nil, addedWatch: true)
    }

    /// Steps until finished; returns the count acknowledged and the revisions sent.
    static func run(_ r: inout Replay, _ h: ArrayHistory) -> (Int?, [UInt64], Replay.Step) {
        var count: Int?
        var sent: [UInt64] = []
        for _ in 0..<10_000 {
            switch r.step(h) {
            case .counting: continue
            case .acknowledge(let n): count = n
            case .events(let e): sent += e.map(\.rev)
            case let last: return (count, sent, last)
            }
        }
        return (count, sent, .finished)
    }

    @Test func aPrefixedReplayCountsInWindowsThenSendsExactlyWhatItCounted() {
        let h = ArrayHistory((1...50_000).map { $0 % 5 == 0 ? "/items/\($0)" : "/orders/\($0)" })
        var r = Replay(Self.plan("/items", after: 7, through: 50_000))
        let (count, sent, end) = Self.run(&r, h)
        #expect(end == .finished)
        #expect(count == 9_999)
        #expect(sent == Array(stride(from: 10, through: 50_000, by: 5)).map(UInt64.init))
    }

    @Test func aQuietListAmongManyChangesToAnotherIsReplayedInAFewStepsWhateverTheRange() {
        let h = ArrayHistory((1...200_000).map { $0 % 20_000 == 0 ? "/settings/my-int" : "/orders/\($0)" })
        var r = Replay(Self.plan("/settings", after: 0, through: 200_000))
        #expect(r.step(h) == .acknowledge(10))
        #expect(r.step(h) == .events(h.events.filter { $0.path == "/settings/my-int" }))
        #expect(r.step(h) == .finished)
        #expect(h.calls == 2)  // was 20 windows of 20,000 revisions, each a read
    }

    @Test func aBusyListIsCountedAWindowOfEventsAStep() {
        let h = ArrayHistory((1...50_000).map { "/items/\($0)" })
        var r = Replay(Self.plan("/items", after: 0, through: 50_000))
        #expect(r.step(h) == .counting)
        #expect(r.cursor == 20_000)
        #expect(r.step(h) == .counting)
        #expect(r.step(h) == .acknowledge(50_000))
        let (_, sent, end) = Self.run(&r, h)
        #expect(end == .finished)
        #expect(sent == (1...50_000).map(UInt64.init))
    }

    @Test func theWholeTreeIsCountedWithoutReadingTheEvents() {
        let h = ArrayHistory((1...30_000).map { "/orders/\($0)" })
        var r = Replay(Self.plan("/", after: 100, through: 30_000))
        #expect(r.step(h) == .acknowledge(29_900))
        #expect(h.calls == 0)
        let (_, sent, end) = Self.run(&r, h)
        #expect(end == .finished)
        #expect(sent.count == 29_900)
    }

    @Test func pagesStartAt64EventsAndDoubleUpToAThousandEachAfterTheLast() {
        let h = ArrayHistory((1...5_000).map { "/orders/\($0)" })
        var r = Replay(Self.plan("/", after: 0, through: 5_000))
        _ = r.step(h)
        var sizes: [Int] = []
        var next: UInt64 = 1
        for _ in 0..<6 {
            guard case .events(let page) = r.step(h) else { Issue.record("no events"); return }
            #expect(page.first?.rev == next, "each page starts after the last")
            next += UInt64(page.count)
            sizes.append(page.count)
        }
        #expect(sizes == [64, 128, 256, 512, 1_000, 1_000], "a replay nobody reads costs its first 64 events")
    }

    @Test func historyTrimmedBeforeTheReplyFailsBeforeAcknowledging() {
        let h = ArrayHistory((1...100).map { "/items/\($0)" })
        h.trimmed = 40
        var r = Replay(Self.plan("/items", after: 10, through: 100))
        #expect(r.step(h) == .failed(HistoryGap(oldest: 41)))
        #expect(!r.acknowledged)
    }

    @Test func historyTrimmedDuringTheReplayFailsWhereItGotTo() {
        let h = ArrayHistory((1...3_000).map { "/items/\($0)" })
        var r = Replay(Self.plan("/items", after: 0, through: 3_000))
        #expect(r.step(h) == .acknowledge(3_000))
        guard case .events = r.step(h) else { Issue.record("no events"); return }
        h.trimmed = 2_000
        #expect(r.step(h) == .failed(HistoryGap(oldest: 2_001)))
        #expect(r.acknowledged)
        #expect(r.cursor == UInt64(Replay.firstPageEvents))
    }
}

extension ReplayTests {
    @Test func aPageOfBigEventsStopsAtAboutSixtyFourKilobytes() {
        let h = ArrayHistory((1...100).map { "/items/\($0)" })
        h.events = h.events.map {
            Event(rev: $0.rev, kind: "add", path: $0.path, summary: String(repeating: "x", count: 10_000), value: .null)
        }
        var r = Replay(Self.plan("/items", after: 0, through: 100))
        #expect(r.step(h) == .acknowledge(100))
        var sizes: [Int] = []
        for _ in 0..<6 {
            guard case .events(let page) = r.step(h) else { Issue.record("no events"); return }
            sizes.append(page.count)
        }
        // Bytes grow with the page's events (4 KiB first): one 10 KB event at least, and 7
        // once a page may hold about 64 KiB.
        #expect(sizes == [1, 1, 2, 4, 7, 7], "\(sizes)")
    }
}

/// The client's resume point over a real connection: cut during a replay, nothing is lost.
@Suite struct ReplayResumeTests {
    @Test func aClientCutDuringAReplayResumesFromItsLastReplayedEventAndGetsTheRest() throws {
        try withServer { s in
            let writer = try connect(s)
            for k in 1...5 { _ = try writer.request("FAV /items/\(k % 4 + 1)") }
            let watcher = try connect(s)
            let ack = try watcher.request("WATCH /items FROM 1")
            #expect(ack.final == "OK watching /items at rev 5; replaying 4 events")
            _ = try watcher.waitPush(timeout: 10) { TabulaConnection.revision(of: $0) == 2 }
            #expect(watcher.lastRevision == 2)  // not 5: revisions 3 to 5 are still to come
            let resumed = try connect(s)  // the cut: a new connection resumes
            _ = try resumed.request("WATCH /items FROM \(watcher.lastRevision)")
            _ = try resumed.request("PING")
            #expect(resumed.takePushes().compactMap { TabulaConnection.revision(of: $0) } == [3, 4, 5])
        }
    }
}
