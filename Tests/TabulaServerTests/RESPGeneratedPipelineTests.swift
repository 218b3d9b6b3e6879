import Foundation
import Testing
import TabulaClient
import TabulaProtocol
import TabulaServer

/// The same generated pipelines (every verb of the table, valid and invalid) through two
/// codecs: pipelined in RESP3 to one fresh server and in the line protocol's JSON to
/// another. Every RESP request gets exactly one reply, in order, and each reply says what
/// the line protocol's says: the same error code, the same message and revision, the same
/// number of rows. A failure names its seed.
@Suite(.serialized) struct RESPGeneratedPipelineTests {
    /// FORMAT is refused on RESP and QUIT closes: neither compares.
    static let lines = GeneratedLines.all.filter { !$0.hasPrefix("FORMAT") }

    @Test(arguments: GeneratedPipelineTests.stores())
    func aPipelineInRESPIsAnsweredOneToOneAsTheLineProtocolAnswersIt(store kind: String) throws {
        let seeds = GeneratedLines.seeds(30)
        for seed in seeds.prefix(kind == "postgres" ? 8 : seeds.count) {
            var rng = SplitMix(seed: seed)
            let drawn = (0..<(2 + Int(rng.next() % 11))).map { _ in
                Self.lines[Int(rng.next() % UInt64(Self.lines.count))]
            }
            let words = drawn.compactMap { line -> [String]? in
                // an open quote: no words
                guard case .success(let w) = Tokenizer.tokenize(Array(line.utf8)) else { return nil }
                return w
            }
            let sent = drawn.filter {
                if case .success = Tokenizer.tokenize(Array($0.utf8)) { return true } else { return false }
            }
            let viaRESP = try Self.resp(words, store: kind)
            let viaLine = try Self.line(sent, store: kind)
            #expect(
                viaRESP.count == sent.count,
                "seed \(seed) on \(kind): \(viaRESP.count) replies to \(sent.count) requests")
            for (i, l) in sent.enumerated() where i < viaRESP.count && i < viaLine.count && !GeneratedLines.varies(l) {
                #expect(viaRESP[i] == viaLine[i], "seed \(seed) on \(kind), request \(i) \(l)")
            }
        }
    }

    /// Each reply's outcome: `-CODE message`, `+message`, or `*N` rows.
    static func outcome(_ v: RV) -> String {
        switch v {
        case .error(let e): return "-" + GeneratedLines.masked(e)
        case .simple(let s): return "+" + GeneratedLines.masked(s)
        case .array(let rows): return "*\(rows.count)"
        default: return "? \(v)"
        }
    }

    static func resp(_ requests: [[String]], store kind: String) throws -> [String] {
        var out: [String] = []
        try withServer(store: try GeneratedPipelineTests.store(kind)) { s in
            let r = try RESPTestClient(port: s.port)
            _ = try r.call("HELLO", "3")
            r.sendRaw(requests.flatMap(RESPTestClient.encode))
            while out.count < requests.count {
                let v = try r.read()
                if case .push = v { continue }  // an event of a watch this pipeline made
                out.append(outcome(v))
            }
        }
        return out
    }

    /// The same outcome read from the line protocol's JSON reply.
    static func line(_ lines: [String], store kind: String) throws -> [String] {
        var out: [String] = []
        try withServer(store: try GeneratedPipelineTests.store(kind)) { s in
            let c = try connect(s)
            _ = try c.request("FORMAT json")
            for l in lines { try c.line.send(l) }
            while out.count < lines.count {
                guard let text = try c.line.readLine(timeout: 10) else { throw POSIXError(.ETIMEDOUT) }
                guard let o = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                    o["push"] == nil
                else { continue }
                if o["ok"] as? Bool == false {
                    out.append(
                        "-" + GeneratedLines.masked("\(o["code"]!) \(WireEncoder.oneLine(o["message"] as! String))"))
                } else if let rows = o["data"] as? [Any], !rows.isEmpty, o["rev"] == nil {
                    out.append("*\(rows.count)")
                } else {
                    var m = o["message"] as? String ?? ""
                    if m.isEmpty { m = "OK" }
                    if let rev = o["rev"] { m += " rev=\(rev)" }
                    out.append("+" + GeneratedLines.masked(WireEncoder.oneLine(m)))
                }
            }
        }
        return out
    }
}
