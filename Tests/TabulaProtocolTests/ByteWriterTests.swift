import Testing
import TabulaProtocol

/// What `ByteWriter` writes is what `JSONValue` writes (a placement: `WireEncoderTests`).
@Suite struct ByteWriterTests {
    static let texts = [
        "", "Rusty Spork", "quote \" back \\ slash", "tab\tnew\nline\rcr", "bell \u{07} del \u{7F} nul \u{00}",
        "naïve ☕️ 🍕", String(repeating: "\u{01}", count: 50), String(repeating: "long ", count: 40),
    ]

    @Test func aJSONStringIsWhatJSONValueWritesForItEscapesIncluded() {
        for text in Self.texts {
            var direct: [UInt8] = [1, 2]
            ByteWriter.append(to: &direct, atMost: 2 + 6 * text.utf8.count) { $0.appendJSONString(text) }
            var expected: [UInt8] = [1, 2]
            JSONValue.writeString(text, to: &expected)
            #expect(direct == expected, "\(text)")
        }
    }

    @Test func decimalsOfEveryWidthAndSignAreWrittenWhole() {
        for v: Int64 in [0, 7, -7, 10, 99, -100, 1_234_567, .max, .min] {
            var out: [UInt8] = []
            ByteWriter.append(to: &out, atMost: 21) { $0.appendDecimal(v) }
            #expect(String(decoding: out, as: UTF8.self) == String(v))
        }
        var out: [UInt8] = []
        ByteWriter.append(to: &out, atMost: 20) { $0.appendDecimal(UInt64.max) }
        #expect(String(decoding: out, as: UTF8.self) == String(UInt64.max))
    }

    @Test func aStringWrittenAsOneLineIsWhatTheEncoderWritesForItAndAsItIsItsUTF8() {
        for text in Self.texts + ["\u{2028} sep \u{202E} bidi \u{85} nel ★"] {
            var oneLine: [UInt8] = [1], plain: [UInt8] = [1]
            ByteWriter.append(to: &oneLine, atMost: 2 * text.utf8.count) { $0.appendOneLine(text) }
            ByteWriter.append(to: &plain, atMost: text.utf8.count) { $0.append(utf8Of: text) }
            var expected: [UInt8] = [1]
            WireEncoder.appendOneLine(text, to: &expected)
            #expect(oneLine == expected, "\(text.debugDescription)")
            #expect(plain == [1] + Array(text.utf8))
        }
    }
}
