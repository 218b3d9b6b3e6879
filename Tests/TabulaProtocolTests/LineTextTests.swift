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

    @Test func anEmptyStringIsTheEmptyLineAndAWriterNeverIs() {
        #expect(LineText("").isEmpty)
        #expect(!LineText(writtenBy: Writer("x")).isEmpty)
    }
}
