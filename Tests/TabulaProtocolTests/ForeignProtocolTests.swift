import Testing
import TabulaProtocol

/// Which lines the line port takes for HTTP (and closes on): request lines, `POST` and
/// `Host:`, and never a line that starts with one of Tabula's verbs.
@Suite struct ForeignProtocolTests {
    static func foreign(_ line: String) -> Bool { ForeignProtocol.isHTTP(Array(line.utf8)[...]) }

    @Test(arguments: ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "CONNECT", "TRACE"])
    func everyHTTPMethodsRequestLineIsHTTP(_ method: String) {
        #expect(Self.foreign("\(method) / HTTP/1.1"))
        #expect(Self.foreign("\(method) /api/x?y=1 HTTP/1.0\r"))
        #expect(Self.foreign("  \(method) * HTTP/2  "))
    }

    @Test func postAndHostAreHTTPInAnyCaseWhatEverFollows() {
        for line in ["POST", "post /x", "PoSt", "Host: evil.example", "host:x", "HOST:", "\tHost: a"] {
            #expect(Self.foreign(line), "\(line)")
        }
    }

    @Test func linesThatOnlyLookLikeHTTPAreNot() {
        for line in [
            "", "   ", "GET /items/1", "GET", "get / HTTP/1.1", "POSTS /x", "Hostname: x", "PING HTTP/1.1",
            "SHOW /settings HTTP", "GET / HTTPS/1",
        ] {
            #expect(!Self.foreign(line), "\(line)")
        }
    }

    @Test func noVerbsLineIsHTTP() {
        var rng = SplitMix64(seed: 43)
        let words = ["/items", "#2", "IF", "REV", "3", "HTTP/1.1", "Host:", "POST", "'a b'", "x"]
        for verb in Verb.allCases {
            for _ in 0..<50 {
                let args = (0..<Int.random(in: 0...4, using: &rng)).map { _ in words.randomElement(using: &rng)! }
                let line = ([verb.rawValue] + args).joined(separator: " ")
                #expect(!Self.foreign(line), "\(line)")
                #expect(!Self.foreign(line.lowercased()), "\(line)")
            }
        }
    }

    /// The rule as Protocol.md states it, written plainly: the first word, `POST` or `Host:`
    /// in any case, or an HTTP method whose line's last word starts `HTTP/`.
    static func plainlyHTTP(_ line: String) -> Bool {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let first = words.first else { return false }
        if first.uppercased() == "POST" || first.uppercased().hasPrefix("HOST:") { return true }
        let methods = ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH", "CONNECT", "TRACE"]
        guard methods.contains(first), words.count > 1 else { return false }
        let last = words.last!.trimmingCharacters(in: ["\r"])
        return last.hasPrefix("HTTP/") || (last.isEmpty && words[words.count - 2].hasPrefix("HTTP/"))
    }

    @Test func randomLinesAreJudgedAsThePlainRuleJudgesThem() {
        var rng = SplitMix64(seed: 7)
        let words = [
            "GET", "get", "POST", "PoSt", "POSTS", "HOST:", "Host:x", "hostname:", "HEAD", "TRACE", "TRACES", "OPTIONS",
            "CONNECT", "DELETE", "PATCH", "PUT", "PING", "SHOW", "/", "/items", "HTTP/1.1", "http/1.1", "HTTP", "\r",
            "x", "Ho", "P", "",
        ]
        for _ in 0..<20_000 {
            let line = (0..<Int.random(in: 1...4, using: &rng)).map { _ in words.randomElement(using: &rng)! }
                .joined(separator: Bool.random(using: &rng) ? " " : "\t")
            #expect(Self.foreign(line) == Self.plainlyHTTP(line), "\(line.debugDescription)")
        }
    }
}
