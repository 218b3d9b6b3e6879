import Testing
import TabulaProtocol

/// The decoder reads back exactly what the encoder writes, in both formats.
@Suite struct WireDecoderTests {
    static func decode(_ bytes: [UInt8]) -> [ServerMessage] {
        var d = WireDecoder()
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().compactMap { d.feed(String($0)) }
    }

    @Test func aTextReplyDecodesToItsRowsTagAndMessage() {
        let reply = Reply(
            rows: [Row(text: "a\nb\\c", json: .null), Row(text: "== Cheap", json: .null)], message: "2 of 2; more: LS")
        let out = Self.decode(WireEncoder.encode(reply, tag: "t1", format: .text))
        #expect(
            out == [
                .reply(
                    DecodedReply(
                        tag: "t1", rows: [Row(text: "a\nb\\c", json: .null), Row(text: "== Cheap", json: .null)],
                        message: "2 of 2; more: LS"))
            ])
    }

    @Test func textThatStartsWithACombiningMarkDecodesWhole() {
        // Found by the fuzzer: a band titled "\u{05B4}" made a row the decoder could not read
        // (as Characters, the space before a combining mark is part of the mark's grapheme).
        let mark = "\u{05B4}"
        let reply = Reply(
            rows: [Row(text: "\(mark)/  \(mark)  any price", json: .null), Row(text: "\\\(mark)x", json: .null)],
            message: "\(mark) band")
        #expect(
            Self.decode(WireEncoder.encode(reply, tag: "t", format: .text)) == [
                .reply(DecodedReply(tag: "t", rows: reply.rows, message: reply.message))
            ])
        let e = TabulaError(.notFound, "\(mark) is not there")
        #expect(
            Self.decode(WireEncoder.encode(Reply(error: e), tag: nil, format: .text)) == [
                .reply(DecodedReply(error: e))
            ])
        let event = Event(rev: 3, kind: "set", path: "/catalog/x", summary: "\(mark) new title", value: .null)
        #expect(
            WireDecoder.textPush(
                String(decoding: WireEncoder.encode(.event(event), format: .text).dropLast(), as: UTF8.self))
                == .event(event))
    }

    @Test func errorsDecodeToTheirCodeAndMessageInBothFormats() {
        let e = TabulaError(.notFound, "no /items/9; LS /items lists what is there")
        for format in [LineFormat.text, .json] {
            let out = Self.decode(WireEncoder.encode(Reply(error: e), tag: nil, format: format))
            #expect(out == [.reply(DecodedReply(error: e))], "\(format)")
        }
        #expect(
            Self.decode(WireEncoder.encode(Reply(error: e), tag: "x", format: .text)) == [
                .reply(DecodedReply(tag: "x", error: e))
            ])
    }

    @Test func aJSONReplyDecodesItsRowsAsValues() {
        let rows = [Row(text: "x", json: .object([("name", .string("my-int")), ("count", .int(3))]))]
        let out = Self.decode(WireEncoder.encode(Reply(rows: rows, message: "1 of 1"), tag: "q", format: .json))
        #expect(out == [.reply(DecodedReply(tag: "q", rows: [Row(text: "", json: rows[0].json)], message: "1 of 1"))])
    }

    @Test func pushesDecodeInBothFormats() {
        let e = Event(
            rev: 43, kind: "select", path: "/settings/my-int", summary: "My Int: 32",
            value: .object([("value", .int(32))]))
        #expect(
            Self.decode(WireEncoder.encode(.event(e), format: .text)) == [
                .push(
                    .event(
                        Event(rev: 43, kind: "select", path: "/settings/my-int", summary: "My Int: 32", value: .null)))
            ])
        #expect(
            Self.decode(WireEncoder.encode(.event(e), format: .json)) == [
                .push(.event(Event(rev: 43, kind: "select", path: "/settings/my-int", summary: "", value: e.value)))
            ])
        let hello = Push.hello(protocolVersion: 1, server: "tabulad/0.1.0", rev: 42, id: "0123456789abcdef")
        for format in [LineFormat.text, .json] {
            #expect(Self.decode(WireEncoder.encode(hello, format: format)) == [.push(hello)])
            #expect(
                Self.decode(WireEncoder.encode(.bye(reason: "server shutting down"), format: format)) == [
                    .push(.bye(reason: "server shutting down"))
                ])
        }
    }

    @Test func randomRepliesRoundTripThroughText() {
        var rng = SplitMix64(seed: 5)
        let alphabet = Array("ab ★\\\n\r#-OK*é")
        func word() -> String {
            String((0..<Int(rng.next() % 12)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
        }
        for _ in 0..<2_000 {
            let rows = (0..<Int(rng.next() % 4)).map { _ in Row(text: word(), json: .null) }
            let message = word()
            let tag = rng.next() % 2 == 0 ? nil : "t\(rng.next() % 100)"
            let out = Self.decode(WireEncoder.encode(Reply(rows: rows, message: message), tag: tag, format: .text))
            #expect(
                out == [.reply(DecodedReply(tag: tag, rows: rows, message: message))], "\(rows.map(\.text)) \(message)")
        }
    }

    @Test func aMessageThatStartsWithAHashIsNotTakenForATag() {
        let bytes = WireEncoder.encode(Reply(message: "#hash: 16"), tag: nil, format: .text)
        #expect(String(decoding: bytes, as: UTF8.self) == "OK \\#hash: 16\n")
        #expect(Self.decode(bytes) == [.reply(DecodedReply(message: "#hash: 16"))])
        #expect(
            Self.decode(WireEncoder.encode(Reply(message: "#hash: 16"), tag: "t", format: .text)) == [
                .reply(DecodedReply(tag: "t", message: "#hash: 16"))
            ])
    }

    @Test func aLineThatIsNotTheProtocolIsReportedAsSuch() {
        var d = WireDecoder()
        #expect(d.feed("HTTP/1.1 400 Bad Request") == .unreadable("HTTP/1.1 400 Bad Request"))
        #expect(d.feed("ERR NOSUCHCODE x") == .unreadable("ERR NOSUCHCODE x"))
    }

    @Test func lineKindsAreToldFromTheFirstBytes() {
        #expect(WireDecoder.kind(of: Array("- row".utf8)) == .row)
        #expect(WireDecoder.kind(of: Array("OK".utf8)) == .ok)
        #expect(WireDecoder.kind(of: Array("ERR NOTFOUND x".utf8)) == .error)
        #expect(WireDecoder.kind(of: Array("* EVENT 1 add /x".utf8)) == .push)
        #expect(WireDecoder.kind(of: Array(#"{"ok":true,"message":""}"#.utf8)) == .ok)
        #expect(WireDecoder.kind(of: Array(#"{"ok":false,"code":"X"}"#.utf8)) == .error)
        #expect(WireDecoder.kind(of: Array(#"{"push":"bye"}"#.utf8)) == .push)
    }

    @Test func watchAcksAreReadBackFromTheirMessage() {
        for ack in [
            WatchAck(prefix: "/items", rev: 57), WatchAck(prefix: "/", rev: 0, replaying: 1),
            WatchAck(prefix: "/orders", rev: 6, replaying: 3),
        ] {
            #expect(WatchAck(message: ack.message) == ack)
        }
        #expect(WatchAck(message: "5 removed") == nil)
    }
}
