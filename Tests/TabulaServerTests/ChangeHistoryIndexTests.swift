import Testing
import TabulaProtocol

@testable import TabulaServer

/// The history's index by top-level list gives, for every prefix and range, exactly what a
/// scan of every held event gives: generated histories of every list (removals of lists
/// and of `/` among them), rings that drop their oldest, and every prefix.
@Suite struct ChangeHistoryIndexTests {
    static let paths = [
        "/settings", "/settings/my-int", "/settings/my-int/16", "/items", "/items/3", "/items/30", "/orders",
        "/orders/1",
        "/catalog/item-1", "/catalog/item-1/item-1.2", "/catalog/item-10", "/menu/pizza", "/",
    ]
    static let prefixes = paths + ["/settings/my-string", "/catalog", "/nope", "/items/3/x"]

    /// What a scan says: `Event.concerns` over every held event in the range.
    static func scanned(_ all: [Event], after: UInt64, through: UInt64, under prefix: String) -> [UInt64] {
        all.filter { $0.rev > after && $0.rev <= through && $0.concerns(prefix) }.map(\.rev)
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func theIndexAnswersAsAScanWouldForEveryPrefixAndRange(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let capacity = Int.random(in: 20...300, using: &rng)
        var h = ChangeHistory(capacity: capacity)
        var held: [Event] = []
        let n = UInt64.random(in: 50...900, using: &rng)
        for rev in 1...n {
            let kind = ["add", "set", "rm", "clear", "order", "mv"].randomElement(using: &rng)!
            let e = Event(rev: rev, kind: kind, path: Self.paths.randomElement(using: &rng)!, summary: "", value: .null)
            var slot: Event? = e
            h.append(&slot)
            held.append(e)
            if held.count > capacity { held.removeFirst() }
        }
        #expect(h.oldest == held.first?.rev, "seed \(seed)")
        for _ in 0..<200 {
            let prefix = Self.prefixes.randomElement(using: &rng)!
            let a = UInt64.random(in: (held.first!.rev - 1)...n, using: &rng), b = UInt64.random(in: a...n, using: &rng)
            let expected = Self.scanned(held, after: a, through: b, under: prefix)
            #expect(
                h.count(after: a, through: b, under: prefix) == expected.count,
                "seed \(seed): count of \(prefix) in (\(a), \(b)]")
            let limit = Int.random(in: 1...50, using: &rng)
            #expect(
                h.events(after: a, through: b, under: prefix, limit: limit).map(\.rev) == Array(expected.prefix(limit)),
                "seed \(seed): events of \(prefix) in (\(a), \(b)]")
            let capped = h.count(after: a, through: b, under: prefix, limit: limit)
            #expect(
                capped.count == min(limit, expected.count)
                    && capped.through == (expected.count >= limit ? expected[limit - 1] : b),
                "seed \(seed): count of at most \(limit) of \(prefix) in (\(a), \(b)]")
        }
    }

    @Test func aReplayOfOneListLooksAtItsOwnEventsOnly() {
        var h = ChangeHistory(capacity: 1_000_000)
        for rev in 1...200_000 as ClosedRange<UInt64> {
            var e: Event? = Event(
                rev: rev, kind: "order", path: rev % 10_000 == 0 ? "/settings/my-int" : "/orders/\(rev)", summary: "",
                value: .null)
            h.append(&e)
        }
        #expect(h.count(after: 0, through: 200_000, under: "/settings") == 20)
        #expect(
            h.events(after: 0, through: 200_000, under: "/settings/my-int", limit: 100).map(\.rev)
                == (1...20).map { UInt64($0) * 10_000 })
    }
}
