import Testing
import TabulaProtocol

/// `TextBuilder` against String interpolation, on generated parts: strings (ASCII, accented,
/// emoji, small and large), literals and decimals from `Int.min` to `UInt64.max`.
@Suite struct TextBuilderTests {
    static let strings = [
        "", "a", "Rusty Spork", "é", "★", "👩‍👩‍👧", String(repeating: "long name ", count: 9), "serial=5A3C9E01",
    ]
    static let ints: [Int] = [0, 1, 9, 10, 99, 100, -1, -10, 12_345, Int.max, Int.min, Int(Int32.max)]
    static let words: [UInt64] = [0, 7, 10, 1_000_000, UInt64.max, UInt64(Int.max) + 1]

    @Test(arguments: 1...4)
    func aBuiltTextEqualsTheSameTextInterpolated(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<2_000 {
            var expected = ""
            var steps: [(inout TextBuilder) -> Void] = []
            for _ in 0..<Int(rng.next() % 8) {
                switch rng.next() % 4 {
                case 0:
                    let s = Self.strings[Int(rng.next() % UInt64(Self.strings.count))]
                    expected += s
                    steps.append { $0.append(s) }
                case 1:
                    expected += "  $"
                    steps.append { $0.append("  $") }
                case 2:
                    let v = Self.ints[Int(rng.next() % UInt64(Self.ints.count))]
                    expected += "\(v)"
                    steps.append { $0.appendDecimal(v) }
                default:
                    let v = Self.words[Int(rng.next() % UInt64(Self.words.count))]
                    expected += "\(v)"
                    steps.append { $0.appendDecimal(v) }
                }
            }
            let built = TextBuilder.build(capacity: expected.utf8.count) { out in
                for step in steps { step(&out) }
            }
            #expect(built == expected, "seed \(seed)")
            #expect(Array(built.utf8) == Array(expected.utf8), "seed \(seed)")
        }
    }

    @Test func aTextMayFillItsCapacityExactly() {
        let s = TextBuilder.build(capacity: 24) { out in
            out.append("-")
            out.appendDecimal(Int.min)
            out.append("★")
        }
        #expect(s == "--9223372036854775808★")
        #expect(s.utf8.count == 24)
    }

    @Test func writingPastTheCapacityStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            _ = TextBuilder.build(capacity: 3) { $0.appendDecimal(12_345) }
        }
    }
}
