import Testing

@testable import TabulaProtocol

@Suite struct TokenizerFastPathTests {
    /// The fast path for plain lines must split exactly as the general tokenizer does, and
    /// step aside for anything it does not handle.
    @Test func theFastPathAgreesWithTheGeneralTokenizerOnRandomLines() {
        let alphabet: [[UInt8]] = [
            Array("a".utf8), Array("Z".utf8), Array("/".utf8), Array("#".utf8), Array("=".utf8), Array("7".utf8),
            [32], [32, 32], [9], [34], [39], [92], [0], [10], [13], [127], [0x1F],
            Array("é".utf8), Array("€".utf8), [0xC3], [0xFF], [0x80],
        ]
        var rng = SplitMix64(seed: 17)
        var fastTaken = 0
        for round in 0..<20_000 {
            var line: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &rng) { line += alphabet.randomElement(using: &rng)! }
            let general = Tokenizer.general(line[...])
            #expect(Tokenizer.tokenize(line) == general, "seed 17, round \(round): \(line)")
            if let fast = Tokenizer.plainWords(line[...]) {
                fastTaken += 1
                #expect(.success(fast) == general, "seed 17, round \(round): \(line)")
            }
            // The verb's bytes, as the parser looks them up, are the general tokenizer's first word.
            if let (word, _) = Tokenizer.plainFirstWord(line[...]), case .success(let tokens) = general {
                #expect(tokens.first == String(decoding: word, as: UTF8.self), "seed 17, round \(round): \(line)")
            }
        }
        #expect(fastTaken > 1000)
    }

    @Test func theFastPathLeavesQuotesControlBytesAndNonASCIIToTheGeneralTokenizer() {
        for s in ["a \"b\"", "a 'b'", "caf\u{E9}", "a\u{1}b", "a\u{7F}"] {
            #expect(Tokenizer.plainWords(Array(s.utf8)[...]) == nil, "\(s)")
        }
        #expect(
            Tokenizer.plainWords(Array(" SELECT\t/settings/my-int  #2 ".utf8)[...]) == [
                "SELECT", "/settings/my-int", "#2",
            ])
    }
}
