import Testing
import TabulaProtocol

/// The gate's pure rules: the element bounds, and which characters stored text may hold,
/// checked over every scalar below U+0100 and at each bound's edge.
@Suite struct RequestGateRuleTests {
    @Test func everyControlCharacterButTabLineFeedAndReturnIsRefusedInAWrite() {
        for v in UInt32(0)..<0x100 {
            let scalar = Unicode.Scalar(v)!
            let refused = RequestParser.parseRequest(tokens: ["ADD", "/items", "a\(Character(scalar))b", "5"])
            let control = v < 0x20 || (0x7F...0x9F).contains(v)
            let kept = !control || v == 9 || v == 10 || v == 13
            switch refused {
            case .success: #expect(kept, "U+\(String(v, radix: 16)) was taken")
            case .failure(let e):
                #expect(!kept, "U+\(String(v, radix: 16)) was refused: \(e)")
                #expect(e.code == (v == 0 ? .invalid : .encoding), "\(e)")
            }
        }
    }

    @Test func aControlCharacterInAReadIsParsedAsBefore() {
        guard case .success = RequestParser.parseRequest(tokens: ["SHOW", "/items/\u{1B}"]) else {
            Issue.record("a read was refused")
            return
        }
    }

    @Test func theRefusalNamesTheCharacter() {
        guard case .failure(let e) = RequestParser.parseRequest(tokens: ["ORDER", "pi\u{9B}zza"]) else {
            Issue.record("taken")
            return
        }
        #expect(e.message.contains("U+009B"), "\(e.message)")
    }

    @Test func theElementBoundHoldsWhetherOrNotLoggedIn() {
        for loggedIn in [false, true] {
            #expect(
                RequestGate.boundRefusal(elements: RequestGate.mostElements + 1, longest: 1, loggedIn: loggedIn) != nil)
        }
        #expect(RequestGate.boundRefusal(elements: RequestGate.mostElements, longest: 60_000, loggedIn: true) == nil)
    }

    @Test func beforeALoginTenElementsOf16KiBAreTheMost() {
        let n = RequestGate.preLoginElements
        let b = RequestGate.preLoginElementBytes
        #expect(RequestGate.boundRefusal(elements: n, longest: b, loggedIn: false) == nil)
        #expect(RequestGate.boundRefusal(elements: n + 1, longest: 1, loggedIn: false) != nil)
        #expect(RequestGate.boundRefusal(elements: 2, longest: b + 1, loggedIn: false) != nil)
    }
}
