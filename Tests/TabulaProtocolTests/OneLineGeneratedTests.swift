import Testing
import TabulaProtocol

/// `WireEncoder.appendOneLine` (runs copied whole) against its rule written plainly, byte by
/// byte, on generated text dense in the bytes the rule looks at.
@Suite struct OneLineGeneratedTests {
    /// The rule, one byte at a time: `\n`, `\r`, `\t` and `\\` escaped; other C0 controls,
    /// DEL, C1 controls, the bidirectional controls and the line and paragraph separators `?`.
    static func plain(_ s: String) -> [UInt8] {
        let b = Array(s.utf8)
        var out: [UInt8] = []
        var i = 0
        while i < b.count {
            let next = i + 1 < b.count ? b[i + 1] : 0
            let third = i + 2 < b.count ? b[i + 2] : 0
            switch b[i] {
            case 10: out += [92, UInt8(ascii: "n")]
            case 13: out += [92, UInt8(ascii: "r")]
            case 9: out += [92, UInt8(ascii: "t")]
            case 92: out += [92, 92]
            case 0..<32, 127: out.append(UInt8(ascii: "?"))
            case 0xC2 where (0x80...0x9F).contains(next):
                out.append(UInt8(ascii: "?"))
                i += 1
            case 0xE2
            where (next == 0x80 && (0xA8...0xAE).contains(third)) || (next == 0x81 && (0xA6...0xA9).contains(third)):
                out.append(UInt8(ascii: "?"))
                i += 2
            default: out.append(b[i])
            }
            i += 1
        }
        return out
    }

    /// Pieces that start, or look like they start, something the rule replaces.
    static let pieces: [String] = [
        "a", "Rusty Spork", " ", "\n", "\r", "\t", "\\", "\u{0}", "\u{1B}", "\u{7F}", "\u{85}", "\u{9B}", "\u{A0}", "é",
        "\u{2028}", "\u{2029}", "\u{202A}", "\u{202E}", "\u{202F}", "\u{2066}", "\u{2069}", "\u{206A}", "★", "–", "≥",
        "\u{2027}",
    ]

    @Test func runsCopiedWholeGiveWhatTheByteByByteRuleGives() {
        var rng = SplitMix64(seed: 29)
        for round in 0..<5_000 {
            let n = Int(rng.next() % 12)
            let s = (0..<n).map { _ in
                OneLineGeneratedTests.pieces[Int(rng.next() % UInt64(OneLineGeneratedTests.pieces.count))]
            }.joined()
            var out: [UInt8] = [UInt8(ascii: "-")]
            WireEncoder.appendOneLine(s, to: &out)
            #expect(
                Array(out.dropFirst()) == OneLineGeneratedTests.plain(s), "seed 29, round \(round): \(Array(s.utf8))")
        }
    }
}
