import Testing
import TabulaClient

/// The live view's status-line prompt edits as readline's emacs keys do.
@Suite struct LineEditTests {
    static func typed(_ s: String, into e: inout LineEdit) { for b in s.utf8 { _ = e.take(.byte(b)) } }

    @Test func typingInsertsAtTheCursorAndArrowsMoveIt() {
        var e = LineEdit("Lamp")
        _ = e.take(.home)
        Self.typed("Desk ", into: &e)
        #expect(e.text == "Desk Lamp" && e.cursor == 5)
        _ = e.take(.end)
        _ = e.take(.left)
        Self.typed("!", into: &e)
        #expect(e.text == "Desk Lam!p")
    }

    @Test func ctrlAAndCtrlEGoToEitherEnd() {
        var e = LineEdit("abc")
        _ = e.take(.byte(1))
        #expect(e.cursor == 0)
        _ = e.take(.byte(5))
        #expect(e.cursor == 3)
    }

    @Test func ctrlUKillsBeforeTheCursorAndCtrlKAfterIt() {
        var e = LineEdit("one two")
        _ = e.take(.byte(2)); _ = e.take(.byte(2)); _ = e.take(.byte(2))
        _ = e.take(.byte(11))
        #expect(e.text == "one ")
        _ = e.take(.byte(21))
        #expect(e.text == "" && e.cursor == 0)
    }

    @Test func ctrlWRemovesTheWordBeforeTheCursorAndTheSpacesAfterIt() {
        var e = LineEdit("red desk lamp  ")
        _ = e.take(.byte(23))
        #expect(e.text == "red desk ")
        _ = e.take(.byte(23))
        #expect(e.text == "red ")
    }

    @Test func backspaceAndDeleteRemoveWholeCharacters() {
        var e = LineEdit("Café")
        _ = e.take(.backspace)
        #expect(e.text == "Caf")
        _ = e.take(.home)
        _ = e.take(.delete)
        _ = e.take(.byte(4))
        #expect(e.text == "f")
    }

    @Test func aCharacterOfSeveralBytesIsInsertedOnceAllHaveCome() {
        var e = LineEdit()
        let bytes = Array("★".utf8)
        _ = e.take(.byte(bytes[0]))
        #expect(e.text == "")
        for b in bytes.dropFirst() { _ = e.take(.byte(b)) }
        #expect(e.text == "★" && e.cursor == 1)
    }

    @Test func enterTakesTheLineTrimmedAndEscOrCtrlCDropsIt() {
        var e = LineEdit("  lamp ")
        #expect(e.take(.byte(13)) == .done("lamp"))
        #expect(e.take(.byte(27)) == .dropped)
        #expect(e.take(.byte(3)) == .dropped)
    }

    @Test func whatIsTypedStopsAtTwoHundredBytes() {
        var e = LineEdit()
        Self.typed(String(repeating: "x", count: 250), into: &e)
        #expect(e.text.utf8.count == LineEdit.mostBytes)
    }
}
