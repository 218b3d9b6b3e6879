import Testing
import TabulaProtocol

@testable import TabulaClient

/// What a person sees: built from the decoded reply, styled by the protocol's row marks.
@Suite struct RendererTests {
    static func reply(_ rows: [String], _ message: String) -> ServerReply {
        ServerReply(
            reply: DecodedReply(rows: rows.map { Row(text: $0, json: .null) }, message: message),
            lines: rows.map { "- " + $0 } + ["OK " + message])
    }

    @Test func rowsAreIndentedAndTheMessageShownDimmedWithoutColour() {
        let r = Renderer(color: false)
        #expect(
            r.render(Self.reply(["1  Rusty Spork  $12  serial=5A3C9E01"], "1 item")) == [
                "  1  Rusty Spork  $12  serial=5A3C9E01", "(1 item)",
            ])
    }

    @Test func sectionHeadersAndEmptySectionsAreStyledByTheirMarks() {
        let r = Renderer(color: true)
        let out = r.render(
            Self.reply([RowMarks.sectionHeader + "Cheap Items (< $50): 0 items", RowMarks.emptySection], "0 items"))
        #expect(out[0] == "\u{1b}[1;4mCheap Items (< $50): 0 items\u{1b}[0m")
        #expect(out[1] == "\u{1b}[2;3m  No Items\u{1b}[0m")
    }

    @Test func theSelectedOptionAndFavouritesAreColoured() {
        let r = Renderer(color: true)
        #expect(r.renderData("[x] #2  16") == "  \u{1b}[32m[x]\u{1b}[0m #2  16")
        #expect(r.renderData("2  Fluffy Bear  $34  serial=0B77D2C4  ★").hasSuffix("\u{1b}[33m★\u{1b}[0m"))
    }

    @Test func anErrorIsShownWithItsCodeInRed() {
        let e = ServerReply(reply: DecodedReply(error: TabulaError(.notFound, "no /x")), lines: ["ERR NOTFOUND no /x"])
        #expect(Renderer(color: true).render(e) == ["\u{1b}[31mERR NOTFOUND no /x\u{1b}[0m"])
    }

    @Test func aByeIsYellowAndOtherPushesCyan() {
        let r = Renderer(color: true)
        #expect(r.renderPush("* BYE server shutting down") == "\u{1b}[33m* BYE server shutting down\u{1b}[0m")
        #expect(r.renderPush("* EVENT 3 add /items/5 x").hasPrefix("\u{1b}[36m"))
    }
}

/// `--csv` and `--tsv` tables from the server's JSON rows.
@Suite struct TableOutputTests {
    @Test func aCSVTableHasAHeaderOfEveryKeyAndQuotesWhatNeedsIt() {
        let rows: [JSONValue] = [
            .object([("name", .string("Chair, \"red\"")), ("value", .int(42))]),
            .object([("name", .string("Lamp")), ("fav", .bool(true))]),
        ]
        #expect(TableOutput.csv.lines(rows) == ["name,value,fav", "\"Chair, \"\"red\"\"\",42,", "Lamp,,true"])
        #expect(TableOutput.tsv.lines([.object([("t", .string("a\tb\nc"))])]) == ["t", "a\\tb\\nc"])
        #expect(TableOutput.csv.lines([.string("x")]) == ["value", "x"] && TableOutput.csv.lines([]).isEmpty)
    }
}

@Suite struct RendererWrapTests {
    @Test func aLongRowWrapsAtSpacesWithItsContinuationIndented() {
        let help = "HELP [verb]                        list the verbs, or explain one"
        let lines = Renderer.wrap(help, width: 38)
        #expect(lines.allSatisfy { $0.count <= 38 } && lines.count > 1, "\(lines)")
        #expect(lines.joined(separator: " ").split(separator: " ") == help.split(separator: " "), "no word is cut")
        #expect(Renderer.wrap("short", width: 38) == ["short"])
    }
}
