import Testing
import TabulaProtocol
@testable import TabulaServer

/// Everything `d` yields now.
func requests(_ d: inout RESPDecoder) -> [RESPRequest] {
    var out: [RESPRequest] = []
    while let r = d.next() { out.append(r) }
    return out
}

/// `words` as one multibulk request.
func multibulk(_ words: [[UInt8]]) -> [UInt8] {
    var out = Array("*\(words.count)\r\n".utf8)
    for w in words { out += Array("$\(w.count)\r\n".utf8) + w + [13, 10] }
    return out
}

func multibulk(_ words: String...) -> [UInt8] { multibulk(words.map { Array($0.utf8) }) }

func words(_ s: String...) -> RESPRequest { .multibulk(s.map { Array($0.utf8) }) }

@Suite struct RESPDecoderTests {
    @Test func aMultibulkRequestIsItsElements() {
        var d = RESPDecoder(maxRequest: 1000)
        d.append(contentsOf: multibulk("SELECT", "/settings/my-int", "#2"))
        #expect(requests(&d) == [words("SELECT", "/settings/my-int", "#2")])
        #expect(d.bufferedCount == 0)
    }

    @Test func elementsAreBinarySafe() {
        let odd: [UInt8] = [0, 13, 10, 36, 42, 255]
        var d = RESPDecoder(maxRequest: 1000)
        d.append(contentsOf: multibulk([Array("PING".utf8), odd]))
        #expect(requests(&d) == [.multibulk([Array("PING".utf8), odd])])
    }

    @Test func anInlineRequestIsALineWithoutItsEnding() {
        var d = RESPDecoder(maxRequest: 1000)
        d.append(contentsOf: Array("PING\r\nLS /items\n".utf8))
        #expect(requests(&d) == [.inline(Array("PING".utf8)), .inline(Array("LS /items".utf8))])
    }

    @Test func emptyLinesAndEmptyArraysAskNothing() {
        var d = RESPDecoder(maxRequest: 1000)
        d.append(contentsOf: Array("\r\n  \n*0\r\n*-1\r\n".utf8) + multibulk("PING"))
        #expect(requests(&d) == [words("PING")])
    }

    @Test func aRequestSentAByteAtATimeGivesTheSameRequests() {
        let stream = multibulk("ADD", "/items", "Lamp", "80") + Array("PING\r\n".utf8) + multibulk("LS")
        var d = RESPDecoder(maxRequest: 1000)
        var got: [RESPRequest] = []
        for b in stream {
            d.append(contentsOf: [b])
            got += requests(&d)
        }
        #expect(got == [words("ADD", "/items", "Lamp", "80"), .inline(Array("PING".utf8)), words("LS")])
    }

    @Test func generatedStreamsCutInThreeGiveTheSameRequestsAsWhole() {
        for seed in UInt64(1)...300 {
            var rng = SplitMix64(seed: seed)
            var stream: [UInt8] = []
            var expected: [RESPRequest] = []
            for _ in 0..<Int(rng.next() % 6 + 1) {
                if rng.next() % 4 == 0 {
                    let line = Array("LS /items LIMIT \(rng.next() % 100)".utf8)
                    stream += line + (rng.next() % 2 == 0 ? [13, 10] : [10])
                    expected.append(.inline(line))
                } else {
                    let ws = (0..<Int(rng.next() % 5 + 1)).map { _ in
                        (0..<Int(rng.next() % 40)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                    }
                    stream += multibulk(ws)
                    expected.append(.multibulk(ws))
                }
            }
            let a = Int(rng.next() % UInt64(stream.count + 1))
            let b = a + Int(rng.next() % UInt64(stream.count - a + 1))
            var d = RESPDecoder(maxRequest: 10_000)
            var got: [RESPRequest] = []
            for piece in [stream[..<a], stream[a..<b], stream[b...]] {
                d.append(contentsOf: piece)
                got += requests(&d)
                #expect(d.bufferedCount <= stream.count, "seed \(seed): partial input stays within what was sent")
            }
            #expect(got == expected, "seed \(seed), cut at \(a) and \(b)")
        }
    }

    @Test func beforeALoginMoreThanTenElementsIsFatal() {
        var d = RESPDecoder(maxRequest: 100_000, unauthenticated: true)
        d.append(contentsOf: Array("*11\r\n".utf8))
        #expect(requests(&d) == [.fatal("Protocol error: unauthenticated multibulk length")])
    }

    @Test func beforeALoginAnElementOver16KiBIsFatalBeforeItsBytesArrive() {
        var d = RESPDecoder(maxRequest: 100_000, unauthenticated: true)
        d.append(contentsOf: Array("*1\r\n$16385\r\n".utf8))
        #expect(requests(&d) == [.fatal("Protocol error: unauthenticated bulk length")])
        d.append(contentsOf: [UInt8](repeating: 65, count: 20_000))
        #expect(requests(&d).isEmpty, "nothing more is read once the framing is lost")
        #expect(d.bufferedCount == 0)
    }

    @Test func aRequestOverTheBoundIsFatalAtItsDeclaredLength() {
        var d = RESPDecoder(maxRequest: 1000)
        d.append(
            contentsOf: Array("*2\r\n$600\r\n".utf8) + [UInt8](repeating: 65, count: 600) + Array("\r\n$500\r\n".utf8))
        #expect(requests(&d) == [.fatal("Protocol error: request longer than 1000 bytes")])
    }

    @Test func anInlineLineOverTheBoundIsFatalWithoutWaitingForItsEnd() {
        var d = RESPDecoder(maxRequest: 100)
        d.append(contentsOf: [UInt8](repeating: 65, count: 101))
        #expect(
            requests(&d) == [.fatal("Protocol error: too big inline request (more than 100 bytes without a newline)")])
    }

    @Test func aMalformedFrameSaysWhatWasExpected() {
        var d = RESPDecoder(maxRequest: 1000)
        d.append(contentsOf: Array("*1\r\n:5\r\n".utf8))
        #expect(requests(&d) == [.fatal("Protocol error: expected '$', got ':'")])
        var e = RESPDecoder(maxRequest: 1000)
        e.append(contentsOf: Array("*x\r\n".utf8))
        #expect(requests(&e) == [.fatal("Protocol error: invalid multibulk length")])
        var f = RESPDecoder(maxRequest: 1000)
        f.append(contentsOf: Array("*1\r\n$2\r\nabcd\r\n".utf8))
        #expect(requests(&f) == [.fatal("Protocol error: expected CRLF after a bulk string of 2 bytes")])
    }

    @Test func aDeclaredCountDoesNotReserveMemoryForIt() {
        var d = RESPDecoder(maxRequest: 100_000)
        d.append(contentsOf: Array("*4096\r\n".utf8))
        #expect(requests(&d).isEmpty)
        #expect(d.bufferedCount == 7, "a header alone holds what it was sent as, and no more")
    }

    /// A million empty elements, never finished, cost 8 MB a connection and counted as
    /// nothing: 300 such connections passed every bound (2.5 GB).
    @Test func moreElementsThanTheLoopHoldsOrThanFitInARequestIsFatalAtTheHeader() {
        var d = RESPDecoder(maxRequest: 1 << 30)
        d.append(contentsOf: Array("*4097\r\n".utf8))
        #expect(requests(&d) == [.fatal("Protocol error: multibulk length 4097 is over 4096 elements")])
        var e = RESPDecoder(maxRequest: 1000)
        e.append(contentsOf: Array("*200\r\n".utf8))
        #expect(
            requests(&e) == [.fatal("Protocol error: request longer than 1000 bytes (200 elements take at least 1200)")]
        )
    }

    @Test func emptyElementsCountAsTheBytesTheyWereSentAs() {
        var d = RESPDecoder(maxRequest: 100_000)
        d.append(contentsOf: Array("*4000\r\n".utf8) + Array(repeating: Array("$0\r\n\r\n".utf8), count: 3000).joined())
        #expect(requests(&d).isEmpty)
        #expect(
            d.bufferedCount == 7 + 3000 * 6, "held while incomplete, so the stall timer and the server's bound see it")
        d.append(contentsOf: Array(repeating: Array("$0\r\n\r\n".utf8), count: 1000).joined())
        #expect(requests(&d) == [.multibulk(Array(repeating: [], count: 4000))])
        #expect(d.bufferedCount == 0)
    }
}

@Suite struct RESPDecoderBoundTests {
    /// Found by reasoning about the fuzzer's whole-versus-cut check: a line over the bound
    /// that arrived whole with its newline was taken, the same line in pieces refused.
    @Test func aLineOverTheBoundIsRefusedEvenWhenItArrivesWholeWithItsNewline() {
        var d = RESPDecoder(maxRequest: 100)
        d.append(contentsOf: [UInt8](repeating: 65, count: 150) + [10])
        #expect(
            requests(&d) == [.fatal("Protocol error: too big inline request (more than 100 bytes without a newline)")])
    }
}
