import Testing
import TabulaProtocol

func lines(_ d: inout LineDecoder) -> [String] {
    var out: [String] = []
    while let u = d.next() {
        switch u {
        case .line(let l): out.append(String(decoding: l, as: UTF8.self))
        case .tooLong: out.append("<TOOLONG>")
        }
    }
    return out
}

@Suite struct LineDecoderTests {
    @Test func splitsOnLFAndStripsCRLF() {
        var d = LineDecoder(maxLine: 100)
        d.append(contentsOf: Array("PING\r\nLS /items\n".utf8))
        #expect(lines(&d) == ["PING", "LS /items"])
    }

    @Test func keepsAPartialLineUntilItsNewlineArrives() {
        var d = LineDecoder(maxLine: 100)
        d.append(contentsOf: Array("PI".utf8))
        #expect(lines(&d).isEmpty)
        d.append(contentsOf: Array("NG\n".utf8))
        #expect(lines(&d) == ["PING"])
    }

    @Test func aPartialLineAtTheEndOfInputIsALine() {
        var d = LineDecoder(maxLine: 100)
        d.append(contentsOf: Array("PING\nLS /items".utf8))
        #expect(lines(&d) == ["PING"])
        d.finish()
        #expect(lines(&d) == ["LS /items"])
        d.finish()
        #expect(lines(&d).isEmpty, "nothing buffered: nothing more")
    }

    @Test func reportsAnOverLongLineOnceAndResynchronisesAtTheNextNewline() {
        var d = LineDecoder(maxLine: 8)
        d.append(contentsOf: Array("0123456789".utf8))
        #expect(lines(&d) == ["<TOOLONG>"])
        d.append(contentsOf: Array("abcdef\nPING\n".utf8))
        #expect(lines(&d) == ["PING"])
    }

    @Test func reportsAnOverLongLineThatArrivesWhole() {
        var d = LineDecoder(maxLine: 4)
        d.append(contentsOf: Array("TOOLONGLINE\nOK\n".utf8))
        #expect(lines(&d) == ["<TOOLONG>", "OK"])
    }

    @Test func acceptsALineExactlyAtTheCap() {
        var d = LineDecoder(maxLine: 4)
        d.append(contentsOf: Array("PING\r\n".utf8))
        #expect(lines(&d) == ["PING"])
    }

    @Test func yieldsEmptyLinesForBlankInput() {
        var d = LineDecoder(maxLine: 10)
        d.append(contentsOf: Array("\n\r\n".utf8))
        #expect(lines(&d) == ["", ""])
    }

    @Test func handlesByteAtATimeDelivery() {
        var d = LineDecoder(maxLine: 50)
        var got: [String] = []
        for b in "SHOW /items/1\r\nPWD\n".utf8 {
            d.append(contentsOf: [b])
            got += lines(&d)
        }
        #expect(got == ["SHOW /items/1", "PWD"])
    }

    @Test func survivesManyLinesWithoutGrowingWithoutBound() {
        var d = LineDecoder(maxLine: 50)
        for _ in 0..<10_000 {
            d.append(contentsOf: Array("PING\n".utf8))
            _ = lines(&d)
        }
        #expect(d.bufferedCount == 0)
    }
}
