import Testing
import TabulaHTTP
import TabulaProtocol
@testable import TabulaServer

/// An HTTP request's reply travels inside the server as a record: its status comes from its
/// error code, and records, not newlines, say where each reply ends.
@Suite struct HTTPAPICodecTests {
    @Test func aReplysRecordGivesItsStatusMessageAndJSONBodyWithoutReadingTheJSONBack() {
        var bytes: [UInt8] = []
        Codec.reply(
            Reply(rows: [Row(text: "a\nb", json: .string("a\nb"))], message: "1 row"), tag: nil, format: .httpAPI,
            into: &bytes)
        Codec.reply(
            Reply(error: TabulaError(.conflict, "stale: the row is at rev 9")), tag: "t", format: .httpAPI, into: &bytes
        )
        Codec.reply(Reply(error: TabulaError(.noPerm, "not yours")), tag: nil, format: .httpAPI, into: &bytes)
        let records = HTTPAPICodec.records(bytes)
        #expect(records.map(\.status) == [.ok, .conflict, .forbidden])
        #expect(records.map(\.code) == [nil, .conflict, .noPerm])
        #expect(records[1].message == "stale: the row is at rev 9")
        #expect(
            records[0].body
                == WireEncoder.encode(
                    Reply(rows: [Row(text: "a\nb", json: .string("a\nb"))], message: "1 row"), tag: nil, format: .json))
        #expect(String(decoding: records[1].body, as: UTF8.self).hasPrefix(#"{"ok":false,"tag":"t","code":"CONFLICT""#))
    }

    @Test func everyErrorCodeMapsToAStatus() {
        for code in ErrorCode.allCases {
            var bytes: [UInt8] = []
            Codec.reply(Reply(error: TabulaError(code, "m")), tag: nil, format: .httpAPI, into: &bytes)
            #expect(HTTPAPICodec.records(bytes).first?.status == HTTPStatus(code: code), "\(code)")
        }
    }
}
