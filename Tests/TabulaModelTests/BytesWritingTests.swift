import Foundation
import Testing
@testable import TabulaModel
import TabulaProtocol

/// Rows written straight to bytes (the history's payloads, JSON events, text rows) must be
/// exactly the text of their `json` trees and of the interpolated rows they replace, escapes
/// and odd times included.
@Suite struct BytesWritingTests {
    static let texts = [
        "", "Rusty Spork", "quote \" back \\ slash", "tab\tnew\nline\rcr", "bell \u{07} del \u{7F} nul \u{00}",
        "naïve ☕️ 🍕", "é", String(repeating: "long ", count: 40), "c1 \u{85} bidi \u{202E} sep \u{2028} end",
    ]
    static let times: [Double] = [0, 1_700_000_000.75, -1, -86_401.5, 951_782_400, 9.99e12, 1e13, -.infinity, .nan]

    static func direct(_ v: some JSONRepresentable) -> String {
        var out: [UInt8] = []
        v.writeJSON(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func anItemWrittenDirectlyIsItsJSONText() {
        for (i, text) in BytesWritingTests.texts.enumerated() {
            for t in BytesWritingTests.times {
                let item = Item(
                    id: i * 7 - 3, name: text, value: -i * 1_000, serial: text, created: t, favorite: i % 2 == 0)
                for position in [nil, 0, 12] {
                    let row = ItemRow(item: item, section: text, position: position)
                    #expect(BytesWritingTests.direct(row) == row.json.jsonText)
                }
            }
        }
    }

    @Test func anOrderWrittenDirectlyIsItsJSONText() {
        for (i, text) in BytesWritingTests.texts.enumerated() {
            for t in BytesWritingTests.times {
                let order = Order(id: i, entry: "/menu/" + text, title: text, created: t)
                #expect(BytesWritingTests.direct(order) == order.json.jsonText)
            }
        }
    }

    @Test func aSettingOfEveryTypeWrittenDirectlyIsItsJSONText() {
        let options: [OptionType: [String]] = [
            .text: BytesWritingTests.texts, .int: ["-5", "0", "16", "9007199254740993"],
            .decimal: ["0.5", "-2.0", "3.25"], .bool: ["on", "off"],
        ]
        for type in OptionType.allCases {
            let values = options[type]!
            for selected in values.indices {
                for title in BytesWritingTests.texts {
                    let s = Setting(
                        slug: "my-\(type.rawValue)", title: title, type: type, options: values, selected: selected)
                    #expect(BytesWritingTests.direct(s) == s.json.jsonText)
                }
            }
        }
    }

    @Test func aTimestampWrittenAsBytesIsTheISOText() {
        #expect(Display.timestamp(0) == "1970-01-01T00:00:00Z")
        #expect(Display.timestamp(951_782_400) == "2000-02-29T00:00:00Z")
        #expect(Display.timestamp(-1) == "1969-12-31T23:59:59Z")
        #expect(Display.timestamp(-62_135_596_801) == "0-12-31T23:59:59Z")
        #expect(Display.timestamp(-62_198_755_200) == "-1-01-01T00:00:00Z")
        #expect(Display.timestamp(.nan) == "invalid-time")
    }

    @Test func aTimestampOfAFourDigitYearIsFoundationsISOText() {
        let iso = ISO8601DateFormatter()
        iso.timeZone = TimeZone(identifier: "UTC")
        var rng = SplitMix64(seed: 48)
        // 1583-01-01 (Foundation's calendar is Julian before the Gregorian reform; ours is
        // proleptic Gregorian) to 9999-12-31
        let (lo, hi): (Int64, Int64) = (-12_212_553_600, 253_402_300_799)
        for t in [lo, lo - 1, hi, hi + 1, 0, 86_399, 86_400]
            + (0..<3_000).map({ _ in
                lo + Int64(rng.next() % UInt64(hi - lo))
            })
        {
            let expected = (lo...hi).contains(t) ? iso.string(from: Date(timeIntervalSince1970: Double(t))) : nil
            if let expected { #expect(Display.timestamp(Double(t) + 0.75) == expected, "\(t)") }
        }
        #expect(Display.timestamp(-30_610_224_000) == "1000-01-01T00:00:00Z")
        #expect(Display.timestamp(-30_610_224_001) == "999-12-31T23:59:59Z")
        #expect(Display.timestamp(Double(hi + 1)) == "10000-01-01T00:00:00Z")
    }

    @Test func dollarsAreWholeWithTheSignBeforeTheMark() {
        #expect(Display.dollars(12) == "$12")
        #expect(Display.dollars(0) == "$0")
        #expect(Display.dollars(-5) == "-$5")
        #expect(Display.dollars(Int.min) == "-$9223372036854775808")
    }

    @Test func aStringWithNothingToEscapeIsCopiedAsItIs() {
        var out: [UInt8] = []
        JSONValue.writeString("naïve ☕️ plain", to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "\"naïve ☕️ plain\"")
        out.removeAll()
        JSONValue.writeString("a\"b\\c\nd\u{01}e\u{7F}", to: &out)
        #expect(String(decoding: out, as: UTF8.self) == #""a\"b\\c\nd\u0001e\u007f""#)
    }

    @Test func textRowsWrittenAsBytesAreTheInterpolatedRows() {
        let store = ItemStore()
        for (i, text) in BytesWritingTests.texts.enumerated() {
            for t in BytesWritingTests.times {
                let order = Order(id: i * 1_000 - 1, entry: "/menu/" + text, title: text, created: t)
                #expect(order.row == "\(order.id)  \(order.title)  \(order.entry)  \(Display.timestamp(order.created))")
            }
            for value in [-5, 0, 49, 1_000_000] {
                for favorite in [false, true] {
                    let item = Item(id: i - 2, name: text, value: value, serial: text, created: 0, favorite: favorite)
                    let old =
                        "\(item.id)  \(item.name)  \(Display.dollars(item.value))  serial=\(item.serial)\(item.favorite ? "  " + RowMarks.favorite : "")"
                    #expect(store.row(item) == old)
                }
            }
        }
    }

    @Test func anItemRowSentAsOneLineIsItsTextMadeOneLine() {
        let store = ItemStore()
        for (i, text) in BytesWritingTests.texts.enumerated() {
            for value in [-5, 0, 1_000_000] {
                for favorite in [false, true] {
                    let item = Item(id: i - 2, name: text, value: value, serial: text, created: 0, favorite: favorite)
                    let line = LineText(writtenBy: store.itemRow(item))
                    var sent: [UInt8] = []
                    line.appendOneLine(to: &sent)
                    var expected: [UInt8] = []
                    WireEncoder.appendOneLine(store.row(item), to: &expected)
                    #expect(sent == expected, "\(text.debugDescription)")
                }
            }
        }
    }
}
