import Testing
import TabulaClient

/// The live view's keys from the terminal's bytes, however they were split into reads.
@Suite struct TerminalKeysTests {
    static func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    @Test func anEscAndAKeyInOneReadAreEscThenThatKey() {
        #expect(TerminalKeys.keys(Self.bytes("\u{1B}j")) == [.byte(27), .byte(UInt8(ascii: "j"))])
        #expect(TerminalKeys.keys(Self.bytes("\u{1B}PING")) == [.byte(27)] + Self.bytes("PING").map { .byte($0) })
        #expect(TerminalKeys.keys(Self.bytes("\u{1B}\u{1B}q")) == [.byte(27), .byte(27), .byte(UInt8(ascii: "q"))])
    }

    @Test func theFirstKeyTakesOnlyItsOwnBytesAndLeavesTheRest() {
        let burst = Self.bytes("\u{1B}x")
        let first = TerminalKeys.first(burst[...], final: false)
        #expect(first?.key == .byte(27) && first?.length == 1)
        let arrow = Self.bytes("\u{1B}[Ax")
        let next = TerminalKeys.first(arrow[...], final: false)
        #expect(next?.key == .up && next?.length == 3)
    }

    @Test func escapeSequencesDecodeAsTheirKeysInEitherMode() {
        let keys = TerminalKeys.keys(Self.bytes("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD"))
        #expect(keys == [.up, .down, .right, .left, .up, .down, .right, .left])
        let more = TerminalKeys.keys(Self.bytes("\u{1B}[H\u{1B}[F\u{1B}OH\u{1B}OF\u{1B}[1~\u{1B}[4~\u{1B}[5~\u{1B}[6~"))
        #expect(more == [.home, .end, .home, .end, .home, .end, .pageUp, .pageDown])
        #expect(TerminalKeys.keys(Self.bytes("\u{1B}[3~\u{1B}[2~\u{1B}OM")) == [.delete, .insert, .byte(13)])
    }

    @Test func aModifiedArrowIsTheArrowAndAnUnknownSequenceIsTakenWhole() {
        #expect(TerminalKeys.keys(Self.bytes("\u{1B}[1;5A\u{1B}[1;2D")) == [.up, .left])
        #expect(TerminalKeys.keys(Self.bytes("\u{1B}[15~j\u{1B}OPk")) == [.other, .byte(106), .other, .byte(107)])
    }

    @Test func aSequenceCutBetweenReadsWaitsForItsRest() {
        for cut in ["\u{1B}", "\u{1B}[", "\u{1B}[1", "\u{1B}[1;5", "\u{1B}O"] {
            #expect(TerminalKeys.first(Self.bytes(cut)[...], final: false) == nil, "\(Array(cut.utf8))")
        }
        #expect(TerminalKeys.first(Self.bytes("\u{1B}[1;5A")[...], final: false)?.key == .up)
    }

    @Test func whatNothingFollowedIsEscAloneAndTheBytesAfterIt() {
        let lone = TerminalKeys.first([27][...], final: true)
        #expect(lone?.key == .byte(27) && lone?.length == 1)
        #expect(TerminalKeys.keys(Self.bytes("\u{1B}[")) == [.byte(27), .byte(UInt8(ascii: "["))])
        #expect(TerminalKeys.keys(Self.bytes("\u{1B}O")) == [.byte(27), .byte(UInt8(ascii: "O"))])
    }

    @Test func plainBytesAreThemselvesUTF8AndControlsIncluded() {
        let text = Self.bytes("q★\r\t")
        #expect(TerminalKeys.keys(text) == text.map { .byte($0) })
        #expect(TerminalKeys.first([][...], final: true) == nil)
    }
}
