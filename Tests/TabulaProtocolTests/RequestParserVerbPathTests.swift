import Testing

@testable import TabulaProtocol

/// `RequestParser.parse` looks a plain first word up as a verb in the line's bytes; a line
/// whose verb is quoted goes the general way (tokens, then the verb by name). Both must give
/// the same request, or the same error.
@Suite struct RequestParserVerbPathTests {
    /// Arguments that matter to the parse: paths, numbers, a condition, quotes, an escape.
    static let words = [
        "/settings/my-int", "/items/1", "#2", "7", "IF", "REV", "x", "a=b", "LIMIT", "5", "'q t'", #""e\n""#,
        "HTTP/1.1", "/",
    ]

    @Test func aVerbLookedUpInTheLinesBytesParsesAsTheSameVerbQuoted() {
        // COMPLETE takes its line raw before any word is split, so quoting it changes the request.
        let verbs =
            Verb.allCases.map(\.rawValue).filter { $0 != "COMPLETE" } + [
                "ping", "Show", "PINGX", "GET", "SHOWALLTHEWAY",
            ]
        var rng = SplitMix64(seed: 42)
        var requests = 0
        for round in 0..<20_000 {
            let verb = verbs[Int(rng.next() % UInt64(verbs.count))]
            let args = (0..<Int(rng.next() % 5)).map { _ in Self.words[Int(rng.next() % UInt64(Self.words.count))] }
            let tag = rng.next() % 4 == 0 ? "#t1 " : ""
            let plain = tag + ([verb] + args).joined(separator: " ")
            let quoted = tag + (["'\(verb)'"] + args).joined(separator: " ")
            switch (RequestParser.parse(Array(plain.utf8)), RequestParser.parse(Array(quoted.utf8))) {
            case (.success(let a)?, .success(let b)?):
                requests += 1
                #expect(
                    a.command == b.command && a.tag == b.tag && a.ifRev == b.ifRev, "seed 42, round \(round): \(plain)")
            case (.failure(let a)?, .failure(let b)?):
                #expect(a == b, "seed 42, round \(round): \(plain)")
            case (let a, let b):
                Issue.record(
                    "seed 42, round \(round): \(plain) gave \(String(describing: a)), quoted \(String(describing: b))")
            }
        }
        #expect(requests > 2_000)
    }
}
