import Testing
import TabulaProtocol

@testable import TabulaServer

/// `PrefixSlots` may pass prefixes nobody watches (a shared slot), never miss a watched one,
/// and offers them in the order and bytes `WatchHub.prefixes(of:)` gives.
@Suite struct PrefixSlotsTests {
    /// With spellings that are equal as `String`s but not in bytes (`café` composed and with a
    /// combining accent, `K` and the Kelvin sign), which are different prefixes, and a prepended
    /// mark before a slash (U+0600), which joins the slash in one `Character`.
    static let segments = [
        "items", "menu", "catalog", "a", "b", "5", "17", "ITEMS", "x y", "é", "caf\u{E9}", "cafe\u{301}", "K",
        "\u{212A}", "x\u{600}",
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
            var watched = Set<PathBytes>()
            for _ in 0..<Int(rng.next() % 6) {
                let p = Self.randomPath(&rng)
                if watched.insert(PathBytes(p)).inserted { slots.insert(p) }
            }
            if let gone = watched.first, rng.next() % 3 == 0 {
                watched.remove(gone)
                slots.remove(gone.text)
            }
            let path = Self.randomPath(&rng)
            var candidates: [String] = []
            slots.forEachCandidate(of: path) { candidates.append($0) }
            let all = WatchHub.prefixes(of: path).map(PathBytes.init)
            let expected = all.filter { watched.contains($0) }
            let got = candidates.map(PathBytes.init)
            #expect(got.filter { watched.contains($0) } == expected, "round \(round): \(path) \(watched)")
            #expect(got.allSatisfy { all.contains($0) }, "round \(round): \(path)")
        }
    }

    @Test func aPrefixKeepsEveryByteOfItsPathWhereASlashJoinsTheCharacterBeforeIt() {
        let path = "/a\u{600}/b"  // U+0600 is prepended to what follows: "\u{600}/" is one Character
        let bytes = WatchHub.prefixes(of: path).map { Array($0.utf8) }
        #expect(bytes == [Array("/".utf8), Array("/a\u{600}".utf8), Array(path.utf8)])
        var slots = PrefixSlots()
        slots.insert("/a\u{600}")
        var candidates: [[UInt8]] = []
        slots.forEachCandidate(of: path) { candidates.append(Array($0.utf8)) }
        #expect(candidates == [Array("/a\u{600}".utf8)])
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
