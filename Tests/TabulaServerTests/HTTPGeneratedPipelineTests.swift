import Foundation
import Testing
import TabulaServer

/// Random HTTP pipelines, generated: GETs of every route with a valid, a wrong, a malformed
/// or no login, sent in one write or cut at random points. Every request gets exactly one
/// response, in order, and the server answers another client afterwards. A failure names
/// its seed, and a seed that failed once is kept in `seeds`.
@Suite struct HTTPGeneratedPipelineTests {
    static let paths = [
        "/", "/livez", "/readyz", "/metrics", "/clients", "/api/ls?path=/items", "/api/show?path=/items/1",
        "/api/ls?path=/settings", "/api/ls?path=/nope", "/nope", "/api/ls?path=/items&limit=2",
    ]
    static let logins = [
        HTTPAuthTests.basic("reader"), HTTPAuthTests.basic("admin"), HTTPAuthTests.basic("ci"),
        "Authorization: Basic !!", "",
    ]
    /// A wrong secret: its answer is delayed by the login back-off, which doubles with each
    /// failure, so a pipeline carries at most one.
    static let wrongSecret = "Authorization: Basic " + Data("reader:wrong".utf8).base64EncodedString()

    /// A pipeline of 1–8 keep-alive GETs and how many responses it must get; with
    /// `wrong`, one of them (at random) carries a wrong secret.
    static func pipeline(_ rng: inout SplitMix, wrong: Bool) -> (bytes: [UInt8], count: Int) {
        let n = 1 + Int(rng.next() % 8)
        let wrongAt = wrong ? Int(rng.next() % UInt64(n)) : -1
        var text = ""
        for i in 0..<n {
            let path = paths[Int(rng.next() % UInt64(paths.count))]
            let login = i == wrongAt ? wrongSecret : logins[Int(rng.next() % UInt64(logins.count))]
            text += "GET \(path) HTTP/1.1\r\nHost: localhost\r\n" + (login.isEmpty ? "" : login + "\r\n") + "\r\n"
        }
        return (Array(text.utf8), n)
    }

    @Test(arguments: GeneratedLines.seeds(8))
    func everyRequestOfARandomPipelineGetsOneResponseInOrderAndTheServerStaysUp(seed: UInt64) throws {
        try HTTPAuthTests.withUsers { s, port in
            var rng = SplitMix(seed: seed)
            for round in 0..<6 {
                let (bytes, count) = Self.pipeline(&rng, wrong: round == 0)
                let h = try HTTPTestClient(port: port)
                var at = 0
                while at < bytes.count {  // whole, or cut in pieces
                    let piece = rng.next() % 2 == 0 ? bytes.count - at : 1 + Int(rng.next() % UInt64(bytes.count - at))
                    h.send(Array(bytes[at..<(at + piece)]))
                    at += piece
                }
                var answered = 0
                while answered < count, let r = try? h.response(), r.status > 0 { answered += 1 }
                #expect(answered == count, "seed \(seed) round \(round): \(answered) of \(count) answered")
            }
            let probe = try AccessControlTests.login(s, "reader")
            #expect(try probe.request("PING").final == "OK PONG", "seed \(seed)")
        }
    }
}
