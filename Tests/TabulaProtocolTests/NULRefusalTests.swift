import Testing
import TabulaProtocol

/// No store keeps U+0000 (PostgreSQL's text cuts it, and refused the whole commit of every
/// writer batched with it). A line with a NUL byte is refused as not text; a write whose
/// words another codec split (RESP, HTTP's JSON `\u0000`) is refused as it is parsed; a
/// read is not.
@Suite struct NULRefusalTests {
    static let writes: [[String]] = [
        ["ADD", "/items", "a\u{0}b", "5"], ["SET", "/settings/my-string", "value=x\u{0}"],
        ["ADD", "/catalog", "T\u{0}"],
        ["ORDER", "pesto\u{0}"], ["ADD", "/menu/pizza", "x\u{0}"], ["SET", "/items/1", "name=\u{0}", "IF", "REV", "3"],
    ]

    @Test(arguments: writes) func aWriteWithANULIsRefusedSayingSo(_ words: [String]) {
        guard case .failure(let e) = RequestParser.parseRequest(tokens: words) else {
            Issue.record("\(words) was taken")
            return
        }
        #expect(e.code == .invalid && e.message.contains("NUL"), "\(e)")
    }

    @Test func aLineWithANULByteIsRefusedAsNotText() throws {
        let r = try #require(RequestParser.parse(Array("ADD /items a\u{0}b 5".utf8)))
        guard case .failure(let f) = r else {
            Issue.record("taken")
            return
        }
        #expect(f.error.code == .encoding, "\(f.error)")
    }

    @Test func aReadWithANULIsParsedAsBefore() {
        guard case .success(let r) = RequestParser.parseRequest(tokens: ["SHOW", "/items/a\u{0}"]) else {
            Issue.record("refused")
            return
        }
        #expect(!r.command.isWrite)
    }
}
