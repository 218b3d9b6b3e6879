import Testing
import TabulaProtocol
@testable import TabulaServer

/// The bytes as text (RESP is ASCII framing around UTF-8).
private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

@Suite struct RESPEncoderTests {
    let rows = Reply(
        rows: [Row(text: "my-int/  My Int: 16", json: .object([("name", .string("my-int")), ("selected", .int(2))]))],
        message: "1 of 2")

    func resp(_ r: Reply, _ v3: Bool) -> String { text(Codec.reply(r, tag: nil, format: v3 ? .resp3 : .resp2)) }

    @Test func rowsAreAnArrayOfTheirTextInRESP2() {
        #expect(resp(rows, false) == "*1\r\n$19\r\nmy-int/  My Int: 16\r\n")
    }

    @Test func rowsAreAnArrayOfMapsOfTheirJSONFieldsInRESP3() {
        #expect(resp(rows, true) == "*1\r\n%2\r\n$4\r\nname\r\n$6\r\nmy-int\r\n$8\r\nselected\r\n:2\r\n")
    }

    @Test func aReplyWithoutRowsIsItsMessageAsAStatusAndOKWhenEmpty() {
        #expect(resp(Reply(message: "PONG"), false) == "+PONG\r\n")
        #expect(resp(Reply(), true) == "+OK\r\n")
    }

    @Test func aChangeIsItsMessageWithItsRevisionEvenWithRows() {
        var r = rows
        r.message = "My Int: 16"
        r.rev = 58
        #expect(resp(r, false) == "+My Int: 16 rev=58\r\n")
    }

    @Test func anErrorIsItsCodeAndMessageOnOneLine() {
        #expect(resp(Reply(error: TabulaError(.notFound, "no /x\r\nmore")), true) == "-NOTFOUND no /x\\r\\nmore\r\n")
    }

    @Test func aStatusCannotBreakItsLine() {
        #expect(resp(Reply(message: "a\r\n+OK"), false) == "+a\\r\\n+OK\r\n")
    }

    @Test func aWatchIsAnsweredAsRedisAnswersSubscribe() {
        var r = Reply(message: "watching /orders at rev 3")
        r.subscription = Reply.Subscription("subscribe", channel: "/orders", count: 1)
        #expect(resp(r, false) == "*3\r\n$9\r\nsubscribe\r\n$7\r\n/orders\r\n:1\r\n")
        #expect(resp(r, true) == ">3\r\n$9\r\nsubscribe\r\n$7\r\n/orders\r\n:1\r\n")
        r.subscription = Reply.Subscription("unsubscribe", channel: nil, count: 0)
        #expect(resp(r, false) == "*3\r\n$11\r\nunsubscribe\r\n$-1\r\n:0\r\n")
        #expect(resp(r, true) == ">3\r\n$11\r\nunsubscribe\r\n_\r\n:0\r\n")
    }

    @Test func textAndJSONIgnoreTheSubscription() {
        var r = Reply(message: "1 removed")
        r.subscription = Reply.Subscription("unsubscribe", channel: "/x", count: 0)
        #expect(text(WireEncoder.encode(r, tag: nil, format: .text)) == "OK 1 removed\n")
    }

    @Test func anEventIsAMessageOnItsChannelCarryingItsJSON() {
        let e = Event(rev: 7, kind: "order", path: "/orders/1", summary: "x", value: .int(1))
        var out: [UInt8] = []
        RESPEncoder.event(e, channel: "/orders", resp3: false, into: &out)
        let json = #"{"push":"event","rev":7,"kind":"order","path":"/orders/1","value":1,"prev":null}"#
        #expect(text(out) == "*3\r\n$7\r\nmessage\r\n$7\r\n/orders\r\n$\(json.utf8.count)\r\n\(json)\r\n")
        out = []
        RESPEncoder.event(e, channel: "/orders", resp3: true, into: &out)
        #expect(text(out).hasPrefix(">3\r\n$7\r\nmessage\r\n"))
    }

    @Test func aGoodbyeIsAnErrorAndTheGreetingIsNotSent() {
        #expect(
            text(Codec.push(.bye(reason: "server shutting down"), format: .resp2)) == "-BYE server shutting down\r\n")
        #expect(Codec.push(.hello(protocolVersion: 1, server: "s", rev: 0, id: "x"), format: .resp3).isEmpty)
    }

    @Test func resp2WritesRESP3TypesInTheirRESP2Forms() {
        let v: RESPValue = .map([("a", .null), ("b", .set([.simple("x")]))])
        #expect(text(v.encoded(resp3: false)) == "*4\r\n$1\r\na\r\n$-1\r\n$1\r\nb\r\n*1\r\n+x\r\n")
        #expect(text(v.encoded(resp3: true)) == "%2\r\n$1\r\na\r\n_\r\n$1\r\nb\r\n~1\r\n+x\r\n")
    }
}
