import Foundation
import Testing
import TabulaProtocol

func text(_ b: [UInt8]) -> String { String(decoding: b, as: UTF8.self) }

@Suite struct WireEncoderTests {
    let reply = Reply(
        rows: [Row(text: "my-int/  My Int: 16", json: .object([("name", .string("my-int"))]))], message: "1 of 2")

    @Test func textRepliesMarkDataLinesAndEndWithOK() {
        #expect(text(WireEncoder.encode(reply, tag: nil, format: .text)) == "- my-int/  My Int: 16\nOK 1 of 2\n")
    }
    @Test func theTagFollowsOKOrERR() {
        #expect(text(WireEncoder.encode(Reply(), tag: "t9", format: .text)) == "OK #t9\n")
        #expect(
            text(WireEncoder.encode(Reply(error: TabulaError(.notFound, "no /x")), tag: "t9", format: .text))
                == "ERR #t9 NOTFOUND no /x\n")
    }
    @Test func noDataLineCanLookLikeAFinalLineOrAPush() {
        let r = Reply(rows: [Row(text: "OK fake\n* EVENT", json: .null)], message: "")
        let lines = text(WireEncoder.encode(r, tag: nil, format: .text)).split(separator: "\n")
        #expect(lines == ["- OK fake\\n* EVENT", "OK"])
    }
    @Test func aTypedBackslashAndARealLineBreakLookDifferentInText() {
        let typed = Reply(rows: [Row(text: #"a\nb"#, json: .null)], message: "")
        let real = Reply(rows: [Row(text: "a\nb", json: .null)], message: "")
        #expect(text(WireEncoder.encode(typed, tag: nil, format: .text)) == #"- a\\nb"# + "\nOK\n")
        #expect(text(WireEncoder.encode(real, tag: nil, format: .text)) == #"- a\nb"# + "\nOK\n")
    }
    @Test func c1ControlsAndBidiOverridesNeverReachATextClientRaw() {
        let r = Reply(rows: [Row(text: "x\u{9B}31my\u{202E}evil\u{2066}\u{85}★ – ≥", json: .null)], message: "")
        #expect(text(WireEncoder.encode(r, tag: nil, format: .text)) == "- x?31my?evil??★ – ≥\nOK\n")
    }
    @Test func aTabIsEscapedAndLineSeparatorsNeverReachATextClientRaw() {
        let r = Reply(rows: [Row(text: "a\tb\u{2028}c\u{2029}d", json: .null)], message: "")
        #expect(text(WireEncoder.encode(r, tag: nil, format: .text)) == #"- a\tb?c?d"# + "\nOK\n")
        var d = WireDecoder()
        _ = d.feed(#"- a\tb"#)
        #expect(d.feed("OK") == .reply(DecodedReply(tag: nil, rows: [Row(text: "a\tb", json: .null)], message: "")))
    }
    @Test func jsonRepliesAreOneObjectPerLineThatParses() throws {
        let bytes = WireEncoder.encode(reply, tag: "a", format: .json)
        #expect(bytes.filter { $0 == 10 }.count == 1)
        let obj = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        #expect(obj?["ok"] as? Bool == true)
        #expect(obj?["tag"] as? String == "a")
        #expect((obj?["data"] as? [[String: Any]])?.first?["name"] as? String == "my-int")
    }
    @Test func jsonErrorsCarryTheCode() throws {
        let bytes = WireEncoder.encode(Reply(error: TabulaError(.conflict, "no")), tag: nil, format: .json)
        let obj = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        #expect(obj?["ok"] as? Bool == false)
        #expect(obj?["code"] as? String == "CONFLICT")
    }
    @Test func jsonStringsEscapeEverythingJSONRequires() throws {
        let tricky = "q\"b\\n\n\t\u{1}é☃"
        var out: [UInt8] = []
        JSONValue.array([.string(tricky)]).write(to: &out)
        let back = try JSONSerialization.jsonObject(with: Data(out)) as? [String]
        #expect(back == [tricky])
    }
    @Test func eventsEncodeInBothFormats() throws {
        let e = Event(
            rev: 43, kind: "select", path: "/settings/my-int", summary: "My Int: 32",
            value: .object([("value", .int(32))]))
        #expect(text(WireEncoder.encode(.event(e), format: .text)) == "* EVENT 43 select /settings/my-int My Int: 32\n")
        let obj =
            try JSONSerialization.jsonObject(with: Data(WireEncoder.encode(.event(e), format: .json))) as? [String: Any]
        #expect(obj?["rev"] as? Int == 43)
        #expect(obj?["push"] as? String == "event")
    }
    @Test func anEventIsWrittenByteForByteAsTheObjectItNames() {
        // The event's JSON is written field by field, not built as a `JSONValue`: the same
        // bytes, escapes and value included, whatever the kind, path and value hold.
        let values: [JSONValue] = [
            .null, .int(-42), .int(Int64.max), .double(2.5), .string("a\"b\\c\n\u{1}"), .array([.bool(true), .int(0)]),
            .object([("title", .string("Blu\u{2028}e")), ("n", .int(7))]),
        ]
        for (i, v) in values.enumerated() {
            var e = Event(
                rev: UInt64(i) * 1_000_003, kind: i % 2 == 0 ? "add" : "rm", path: "/items/\(i)\"x\\", summary: "s",
                value: v)
            var pairs: [(String, JSONValue)] = [
                ("push", .string("event")), ("rev", .int(Int64(e.rev))), ("kind", .string(e.kind)),
                ("path", .string(e.path)), ("value", e.value),
            ]
            // Every third names where the entry stands and stood, and the entry as it was.
            if i % 3 == 1 {
                e.at = Placement(section: "cheap\"items", position: i)
                e.from = Placement(position: i + 1)
                e.prev = values[(i + 1) % values.count]
                e.parent = .object([("entries", .int(3))])
            }
            pairs.append(("prev", e.prev))
            if i % 3 == 1 { pairs += [("at", e.at!.json), ("from", e.from!.json), ("parent", e.parent!)] }
            let object = JSONValue.object(pairs)
            var expected: [UInt8] = []
            object.write(to: &expected)
            expected.append(10)
            #expect(WireEncoder.encode(.event(e), format: .json) == expected)
        }
    }

    @Test func anIntegerIsWrittenInDecimalWithItsSign() {
        for i: Int64 in [0, 7, -7, 1_000_000, Int64.min, Int64.max] {
            #expect(JSONValue.int(i).jsonText == String(i))
        }
    }

    @Test func aSnapshotInTheStreamIsAPushThatReadsBackInTextAndJSON() {
        let push = Push.snapshot(prefix: "/items", reason: "the history moved past revision 20 while it was replayed")
        let line = text(WireEncoder.encode(push, format: .text))
        #expect(line == "* SNAPSHOT /items the history moved past revision 20 while it was replayed\n")
        #expect(WireDecoder.textPush(String(line.dropLast())) == push)
        let json = text(WireEncoder.encode(push, format: .json))
        #expect(
            json
                == #"{"push":"snapshot","prefix":"/items","reason":"the history moved past revision 20 while it was replayed"}"#
                + "\n")
        #expect(JSONParser.parse(String(json.dropLast())).flatMap(WireDecoder.jsonPush) == push)
    }

    @Test func helloAndByeArePushes() {
        #expect(
            text(WireEncoder.encode(.hello(protocolVersion: 2, server: "tabulad/1", rev: 5, id: "00ab"), format: .text))
                == "* HELLO tabula 2 rev=5 id=00ab server=tabulad/1\n")
        #expect(text(WireEncoder.encode(.bye(reason: "shutting down"), format: .text)) == "* BYE shutting down\n")
    }
    @Test func everyVerbHasUsageAndSummary() {
        for v in Verb.allCases {
            #expect(v.usage.uppercased().hasPrefix(v.rawValue))
            #expect(!v.summary.isEmpty)
        }
    }

    @Test func aDecimalIsWrittenAsSwiftPrintsIt() {
        var rng = SplitMix64(seed: 48)
        let edges: [UInt64] = [0, 9, 10, 99, 100, 999_999, 1_000_000, UInt64(UInt32.max), UInt64.max - 1, UInt64.max]
        for v in edges + (0..<5_000).map({ _ in rng.next() >> (rng.next() % 64) }) {
            var out: [UInt8] = [UInt8(ascii: "x")]
            WireEncoder.appendDecimal(v, to: &out)
            #expect(out == Array("x\(v)".utf8), "\(v)")
        }
    }

    @Test func aPlacementWrittenAsBytesIsItsJSONText() {
        for section in [nil, "cheap-items", "a \"quoted\" name"] {
            for position in [nil, 1, 10_000] {
                let p = Placement(section: section, position: position)
                var out: [UInt8] = []
                p.writeJSON(to: &out)
                #expect(String(decoding: out, as: UTF8.self) == p.json.jsonText)
            }
        }
    }
}
