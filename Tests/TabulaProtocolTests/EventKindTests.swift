import Testing
import TabulaProtocol

/// An event's kind is compared as a value and spelled as text; a kind this build does not
/// know (a newer server's) keeps its spelling through decoding and encoding.
@Suite struct EventKindTests {
    @Test func everyKindIsSpelledAsItIsReadAndAnUnknownOneKeepsItsText() {
        for text in ["add", "set", "select", "rm", "mv", "fav", "order", "clear", "bands", "rename"] {
            let e = Event(rev: 1, kind: text, path: "/items/1", summary: "", value: .null)
            #expect(e.kind == text)
            #expect(Event.Kind(text).text == text)
        }
        #expect(Event(rev: 1, kind: "rename", path: "/x", summary: "", value: .null).what == .other("rename"))
        #expect(Event.Kind("rm").removes && Event.Kind("clear").removes && !Event.Kind("set").removes)
    }

    @Test func anUnknownKindOnTheWireIsDecodedAndEncodedAsSent() {
        let line = #"{"push":"event","rev":3,"kind":"rename","path":"/items/1","value":null,"prev":null}"#
        guard let json = JSONParser.parse(line), case .event(let e)? = WireDecoder.jsonPush(json) else {
            Issue.record("not decoded as an event: \(line)")
            return
        }
        #expect(e.kind == "rename")
        #expect(
            String(decoding: WireEncoder.encode(.event(e), format: .json), as: UTF8.self).contains(#""kind":"rename""#))
    }
}
