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
    var unauthenticated: Bool {
        get { decoder.unauthenticated }
        set { decoder.unauthenticated = newValue }
    }
    var openTransaction: TransactionQueue? { transaction }

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
                units.append(fatal(why))
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
                if ForeignProtocol.isHTTP(line[...]) {  // a page's request: nothing after it runs
                    failed = true
                    let bye = Codec.push(
                        .bye(reason: CloseReason.notThisProtocol.message), format: resp3 ? .resp3 : .resp2)
                    units.append(.answer(bye, format: nil, close: true))
                    continue
                }
                switch Tokenizer.tokenize(line[...]) {
                case .failure(let e): units.append(.failure(tag: nil, e))
                case .success(let words):
                    if let why = admissionRefusal(words.count, words.lazy.map(\.utf8.count).max() ?? 0) {
                        units.append(fatal("Protocol error: " + why))
                        continue
                    }
                    units += requests.units(words, self)
                }
            }
        }
        return count
    }

    /// The gate's element bounds (`RequestGate`), whatever the framing: the multibulk
    /// decoder holds to them as it reads (`RESPDecoder`), an inline line here once split.
    private func admissionRefusal(_ elements: Int, _ longest: Int) -> String? {
        RequestGate.boundRefusal(elements: elements, longest: longest, loggedIn: !decoder.unauthenticated)
    }

    /// The last answer of a stream that is read no further: `why`, as Redis says it.
    private func fatal(_ why: String) -> LineUnit {
        failed = true
        var out: [UInt8] = []
        RESPWriter(resp3: resp3).error("ERR", why, into: &out)
        return .answer(out, format: nil, close: true)
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
