import Testing

@testable import TabulaProtocol

/// A line kept as a String and the same line kept as what writes it read, compare and send
/// alike.
struct LineTextTests {
    /// Writes `text` (one-line escaping as `WireEncoder.appendOneLine` does it).
    final class Writer: LineWriting {
        let text: String
        init(_ text: String) { self.text = text }
        func writeLine(to out: inout [UInt8], oneLine: Bool) {
            if oneLine { WireEncoder.appendOneLine(text, to: &out) } else { out.append(contentsOf: text.utf8) }
        }
        var lineBytes: Int { text.utf8.count }
        var firstByte: UInt8 { text.utf8.first ?? 0 }
    }

    /// Counts the times it is written.
    final class Counting: LineWriting, @unchecked Sendable {
        var writes = 0
        func writeLine(to out: inout [UInt8], oneLine: Bool) {
            writes += 1
            out.append(contentsOf: "7  Lamp".utf8)
        }
        var lineBytes: Int { 7 }
        var firstByte: UInt8 { UInt8(ascii: "7") }
    }

    @Test(arguments: ["Rusty Spork", "tab\tand\nbreak \\ ★", "naïve ☕️"])
    func aWrittenLineReadsComparesAndIsSentAsTheSameString(text: String) {
        let kept = LineText(text), written = LineText(writtenBy: Writer(text))
        #expect(written.string == text)
        #expect(written.utf8 == Array(text.utf8))
        #expect(written == kept)
        #expect(written != LineText(text + "!"))
        var a: [UInt8] = [], b: [UInt8] = []
        kept.appendOneLine(to: &a)
        written.appendOneLine(to: &b)
        #expect(a == b)
    }

    @Test func aRowAndAnEventKeepTheirTextAsWrittenUntilSetAsAString() {
        var row = Row(line: LineText(writtenBy: Writer("1  Chair")), json: .null)
        #expect(row.text == "1  Chair")
        row.text = "2  Table"
        #expect(row.line == LineText("2  Table"))
        var e = Event(
            rev: 1, what: .fav, path: "/items/1", summary: LineText(writtenBy: Writer("1  Chair")), value: .null)
        #expect(e.summary == "1  Chair")
        e.summary = ""
        #expect(e.summaryLine.isEmpty)
    }

    @Test func aWrittenLineIsWrittenOnlyWhenReadOrSentAndItsStartIsReadWithoutWritingIt() {
        let w = Counting()
        let row = Row(line: LineText(writtenBy: w), json: .null)
        let e = Event(rev: 1, what: .fav, path: "/items/7", summary: row.line, value: .null)
        #expect(e.summaryLine.begins(with: UInt8(ascii: "7")) && !e.summaryLine.begins(with: UInt8(ascii: "#")))
        #expect(e.withoutPosition == nil)
        #expect(w.writes == 0)
        var out: [UInt8] = []
        e.summaryLine.appendOneLine(to: &out)
        #expect(w.writes == 1 && out == Array("7  Lamp".utf8))
    }

    @Test func anEmptyStringIsTheEmptyLineAndAWriterNeverIs() {
        #expect(LineText("").isEmpty)
        #expect(!LineText(writtenBy: Writer("x")).isEmpty)
    }
}
