import Foundation
import Testing
import TabulaHTTP
import TabulaProtocol
@testable import TabulaServer

/// The same generated requests (every verb of the table HTTP takes, valid and invalid)
/// through two codecs: pipelined as `POST /api/VERB` on one keep-alive connection to one
/// fresh server, and in the line protocol's JSON to another. Every POST gets exactly one
/// response, in order, whose status is the one its code says and whose body says what the
/// line protocol's reply says: the same code, message, revision and rows. A failure names
/// its seed.
@Suite(.serialized) struct HTTPPostGeneratedTests {
    /// The lines whose verb HTTP takes (see `HTTPRoutes.refusalOverHTTP`) and whose words
    /// can be read (an open quote has none).
    static let lines = GeneratedLines.all.filter { line in
        guard case .success(let w) = Tokenizer.tokenize(Array(line.utf8)),
            let verb = w.first.flatMap({ Verb(rawValue: $0.uppercased()) })
        else { return false }
        return HTTPRoutes.refusalOverHTTP(verb) == nil && !GeneratedLines.varies(line)
    }

    @Test(arguments: GeneratedPipelineTests.stores())
    func aPipelineOfPostsIsAnsweredOneToOneAsTheLineProtocolAnswersIt(store kind: String) throws {
        let seeds = GeneratedLines.seeds(20)
        for seed in seeds.prefix(kind == "postgres" ? 6 : seeds.count) {
            var rng = SplitMix(seed: seed)
            let drawn = (0..<(2 + Int(rng.next() % 11))).map { _ in
                Self.lines[Int(rng.next() % UInt64(Self.lines.count))]
            }
            let viaHTTP = try Self.http(drawn, store: kind)
            let viaLine = try RESPGeneratedPipelineTests.line(drawn, store: kind)
            #expect(
                viaHTTP.count == drawn.count,
                "seed \(seed) on \(kind): \(viaHTTP.count) responses to \(drawn.count) POSTs")
            for (i, l) in drawn.enumerated() where i < viaHTTP.count && i < viaLine.count {
                #expect(viaHTTP[i] == viaLine[i], "seed \(seed) on \(kind), request \(i) \(l)")
            }
        }
    }

    /// Each response's outcome, as `RESPGeneratedPipelineTests.line` writes the line's; a
    /// status that is not the one the code says is an outcome of its own.
    static func http(_ lines: [String], store kind: String) throws -> [String] {
        var out: [String] = []
        try withServer({ $0.httpPort = 0 }, store: try GeneratedPipelineTests.store(kind)) { s in
            let h = try HTTPTestClient(port: try #require(s.httpPort))
            var bytes = ""
            for l in lines {
                guard case .success(let w) = Tokenizer.tokenize(Array(l.utf8)) else { continue }
                let body = String(
                    decoding: try JSONSerialization.data(withJSONObject: ["args": Array(w.dropFirst())]), as: UTF8.self)
                bytes +=
                    "POST /api/\(w[0].lowercased()) HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            }
            h.send(bytes)
            for _ in lines {
                let r = try h.response()
                guard let o = try JSONSerialization.jsonObject(with: Data(r.body.utf8)) as? [String: Any] else {
                    out.append("? \(r.status) \(r.body)")
                    continue
                }
                if o["ok"] as? Bool == false {
                    let code = ErrorCode(rawValue: o["code"] as! String)!
                    let status = r.status == HTTPStatus(code: code).rawValue ? "" : " (status \(r.status))"
                    out.append(
                        "-" + GeneratedLines.masked("\(code.rawValue) \(WireEncoder.oneLine(o["message"] as! String))")
                            + status)
                } else if let rows = o["data"] as? [Any], !rows.isEmpty, o["rev"] == nil {
                    out.append("*\(rows.count)" + (r.status == 200 ? "" : " (status \(r.status))"))
                } else {
                    var m = o["message"] as? String ?? ""
                    if m.isEmpty { m = "OK" }
                    if let rev = o["rev"] { m += " rev=\(rev)" }
                    out.append(
                        "+" + GeneratedLines.masked(WireEncoder.oneLine(m))
                            + (r.status == 200 ? "" : " (status \(r.status))"))
                }
            }
        }
        return out
    }
}
