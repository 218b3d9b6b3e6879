import Testing
import TabulaProtocol

@testable import TabulaServer

/// `PrefixSlots` may pass prefixes nobody watches (a shared slot), never miss a watched one,
/// and offers them in the order and spelling `WatchHub.prefixes(of:)` gives.
@Suite struct PrefixSlotsTests {
    /// With spellings that are equal as `String`s but not in bytes: `café` composed and with a
    /// combining accent, `K` and the Kelvin sign.
    static let segments = [
        "items", "menu", "catalog", "a", "b", "5", "17", "ITEMS", "x y", "é", "caf\u{E9}", "cafe\u{301}", "K",
        "\u{212A}",
    ]

    static func randomPath(_ rng: inout SplitMix64) -> String {
        let n = Int(rng.next() % 4)
        if n == 0 { return rng.next() % 2 == 0 ? "/" : "" }
        return (0..<n).map { _ in "/" + segments[Int(rng.next() % UInt64(segments.count))] }.joined()
            + (rng.next() % 9 == 0 ? "/" : "")
    }

    @Test func everyWatchedPrefixOfAPathIsACandidateInTheOrderOfItsPrefixes() {
        var rng = SplitMix64(seed: 2_026)
        for round in 0..<2_000 {
            var slots = PrefixSlots()
            var watched = Set<String>()
            for _ in 0..<Int(rng.next() % 6) {
                let p = Self.randomPath(&rng)
                if watched.insert(p).inserted { slots.insert(p) }
            }
            if let gone = watched.first, rng.next() % 3 == 0 {
                watched.remove(gone)
                slots.remove(gone)
            }
            let path = Self.randomPath(&rng)
            var candidates: [String] = []
            slots.forEachCandidate(of: path) { candidates.append($0) }
            let expected = WatchHub.prefixes(of: path).filter { watched.contains($0) }
            #expect(candidates.filter { watched.contains($0) } == expected, "round \(round): \(path) \(watched)")
            #expect(candidates.allSatisfy { WatchHub.prefixes(of: path).contains($0) }, "round \(round): \(path)")
        }
    }

    @Test func aPathNobodyWatchesAnyPrefixOfIsPassedOverWhole() {
        var slots = PrefixSlots()
        slots.insert("/menu")
        var candidates: [String] = []
        slots.forEachCandidate(of: "/items/5") { candidates.append($0) }
        #expect(candidates.isEmpty)
        slots.forEachCandidate(of: "/menu/pizza") { candidates.append($0) }
        #expect(candidates == ["/menu"])
    }
}
