import TabulaProtocol

/// The RESP codec's state on a connection whose first request was multibulk or HELLO:
/// requests decoded by `RESPDecoder` and turned into units by `RESPRequests`, then run as
/// the line protocol's are; replies come back in RESP (the session's format).
final class RESPExchange: RequestCodec {
    var decoder: RESPDecoder
    /// RESP3, as of the HELLOs decoded so far: what a HELLO without a version answers. The
    /// connection's version itself is its session's format, which HELLO's answer switches
    /// in order; every other reply is written in it when it runs.
    var resp3 = false
    /// `CLIENT SETNAME` or `HELLO … SETNAME`: shown in CLIENTS and /clients.
    var name: String?
    /// The stream's framing was lost: nothing more is read.
    var failed = false
    /// Requests queued since `MULTI`, until `EXEC` or `DISCARD` (nil: not in a transaction).
    var transaction: TransactionQueue?

    init(maxRequest: Int, unauthenticated: Bool) {
        decoder = RESPDecoder(maxRequest: maxRequest, unauthenticated: unauthenticated)
    }

    static var firstFormat: WireFormat { .resp2 }
    var partialCount: Int { decoder.bufferedCount }
    var clientName: String? { name }

    /// Whether the first bytes a connection sends are RESP: a multibulk request, or an
    /// inline HELLO (Tabula's own lines never start with `*`, and HELLO is not a verb).
    static func opens(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let first = bytes.first else { return false }
        if first == UInt8(ascii: "*") { return true }
        let hello = Array("HELLO".utf8)
        guard bytes.count > hello.count else { return false }
        for i in hello.indices where bytes[i] & 0xDF != hello[i] { return false }
        let after = bytes[hello.count]
        return after == 32 || after == 13 || after == 10
    }

    func decode(_ bytes: UnsafeRawBufferPointer, into units: inout RoutedUnits, facts: () -> ServerFacts) -> Int {
        decoder.append(bytes)
        return withoutActuallyEscaping(facts) { facts in
            decodeBuffered(into: &units, requests: RESPRequests(describe: facts))
        }
    }

    private func decodeBuffered(into units: inout RoutedUnits, requests: RESPRequests) -> Int {
        var count = 0
        while !failed, let r = decoder.next() {
            count += 1
            switch r {
            case .fatal(let why):
                // Redis's rule: the framing is lost, so the error is the last reply.
                failed = true
                var out: [UInt8] = []
                RESPWriter(resp3: resp3).error("ERR", why, into: &out)
                units.append(.answer(out, format: nil, close: true))
            case .multibulk(let elements):
                if let echoed = RESPExchange.echo(elements) {
                    units.append(echoed)
                    continue
                }
                guard let words = RESPExchange.utf8Words(elements) else {
                    units.append(
                        .failure(
                            tag: nil,
                            TabulaError(.encoding, "every argument must be UTF-8 text; send names and titles as UTF-8"))
                    )
                    continue
                }
                units += requests.units(words, self)
            case .inline(let line):
                switch Tokenizer.tokenize(line[...]) {
                case .failure(let e): units.append(.failure(tag: nil, e))
                case .success(let words): units += requests.units(words, self)
                }
            }
        }
        return count
    }

    /// `ECHO message`, answered with its bytes as they came (binary-safe: `redis-cli --pipe`
    /// ends its input with one of 20 random bytes); nil for any other request.
    static func echo(_ elements: [[UInt8]]) -> LineUnit? {
        guard elements.count == 2, elements[0].count == 4,
            String(decoding: elements[0], as: UTF8.self).uppercased() == "ECHO"
        else { return nil }
        var out: [UInt8] = []
        RESPWriter(resp3: false).bulk(elements[1], into: &out)  // a bulk string is the same in RESP2 and RESP3
        return .answer(out, format: nil, close: false)
    }

    /// The elements as strings, or nil when one is not UTF-8.
    static func utf8Words(_ elements: [[UInt8]]) -> [String]? {
        var words: [String] = []
        words.reserveCapacity(elements.count)
        for e in elements {
            guard let s = String(validating: e, as: UTF8.self) else { return nil }
            words.append(s)
        }
        return words
    }
}
