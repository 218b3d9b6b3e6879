import Foundation
import Testing
import TabulaProtocol

/// The JSON parser takes exactly RFC 8259's strings: every escape, surrogate pairs, and
/// refuses (never traps on) lone surrogates, bad escapes and short hex.
@Suite struct JSONParserTests {
    static func string(_ text: String) -> String? {
        JSONParser.parse(text)?.stringValue
    }

    @Test func aHighSurrogateFollowedByANonSurrogateEscapeIsRefusedNotATrap() {
        // One POST of this body killed the server (arithmetic overflow on `lo - 0xDC00`).
        #expect(JSONParser.parse(#"{"args":["\uD800\u0041"]}"#) == nil)
        #expect(Self.string(#""\uDBFF\u0000""#) == nil)
        #expect(Self.string(#""\uD800\uD800""#) == nil)
    }

    @Test func loneSurrogatesOfEitherKindAreRefused() {
        #expect(Self.string(#""\uD800""#) == nil)
        #expect(Self.string(#""\uD800x""#) == nil)
        #expect(Self.string(#""\uDC00""#) == nil)
        #expect(Self.string(#""\uDFFF\uD800""#) == nil)
    }

    @Test func aSurrogatePairIsTheScalarItEncodes() {
        #expect(Self.string(#""\uD83D\uDE00""#) == "😀")
        #expect(Self.string(#""\uD800\uDC00""#) == "\u{10000}")
        #expect(Self.string(#""\uDBFF\uDFFF""#) == "\u{10FFFF}")
        #expect(Self.string(#""a\ud83d\ude00b""#) == "a😀b")
    }

    @Test func everyEscapeOfTheGrammarIsTakenAndNoOther() {
        #expect(Self.string(#""\"\\\/\b\f\n\r\t""#) == "\"\\/\u{8}\u{C}\n\r\t")
        for bad in [#""\x""#, #""\a""#, #""\0""#, #""\U0041""#, #""\'""#] {
            #expect(Self.string(bad) == nil, "\(bad)")
        }
    }

    @Test func aUnicodeEscapeTakesExactlyFourHexDigits() {
        #expect(Self.string(#""\u00e9""#) == "é")
        #expect(Self.string(#""\u00E9""#) == "é")
        for bad in [#""\u+0e9""#, #""\u00g9""#, #""\u12""#, #""\u""#, #""\u-001""#, #""\u 123""#] {
            #expect(Self.string(bad) == nil, "\(bad)")
        }
    }

    /// Every one of the 65,536 `\uXXXX` escapes alone: a scalar where Unicode has one, nil
    /// for the 2,048 surrogates; never a trap.
    @Test func everySingleEscapeIsItsScalarOrRefused() {
        for v in 0...0xFFFF {
            let hex = String(v, radix: 16)
            let text = "\"\\u" + String(repeating: "0", count: 4 - hex.count) + hex + "\""
            let expected = Unicode.Scalar(UInt32(v)).map { String(Character($0)) }
            #expect(Self.string(text) == expected, "\(text)")
        }
    }

    /// Every high surrogate before a spread of second escapes: a pair only with a low one.
    @Test func everyHighSurrogateMakesAPairOnlyWithALowSurrogate() {
        let seconds: [UInt32] = [0, 0x41, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDE00, 0xDFFF, 0xE000, 0xFFFF]
        for hi in UInt32(0xD800)..<0xDC00 {
            for lo in seconds {
                let text = String(format: "\"\\u%04X\\u%04X\"", hi, lo)
                let pair =
                    (0xDC00..<0xE000).contains(lo)
                    ? Unicode.Scalar(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)) : nil
                #expect(Self.string(text) == pair.map { String(Character($0)) }, "\(text)")
            }
        }
    }

    /// Random strings of escapes and raw characters, checked against Foundation's parser
    /// (no code shared): the same string, or both refuse. A failure names its seed.
    @Test func randomEscapedStringsParseAsFoundationParsesThem() throws {
        let pieces = [
            #"\uD83D"#, #"\uDE00"#, #"\uD800"#, #"\uDC00"#, #"\u0041"#, #"\u00e9"#, #"\n"#, #"\""#, #"\\"#, #"\/"#, "a",
            "é", "😀", " ", #"\u2028"#, #"\u0000"#,
        ]
        for seed in UInt64(1)...400 {
            var rng = SplitMix64(seed: seed)
            let body = (0..<Int.random(in: 1...8, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let text = "[\"" + body + "\"]"
            let ours = JSONParser.parse(text)?.arrayValue?.first?.stringValue
            let theirs = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String]
            // Foundation keeps a lone surrogate as U+FFFD; RFC 8259 leaves it to the parser,
            // and this one refuses: compare only where Foundation saw no lone surrogate.
            if let t = theirs?.first, t.unicodeScalars.contains("\u{FFFD}") {
                #expect(ours == nil, "seed \(seed): \(text)")
                continue
            }
            #expect(ours == theirs?.first, "seed \(seed): \(text)")
        }
    }
}
