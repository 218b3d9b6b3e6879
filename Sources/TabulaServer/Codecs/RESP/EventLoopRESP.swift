import TabulaProtocol

/// The RESP codec on the line port: requests decoded by `RESPDecoder`, turned into units by
/// `RESPRequests`, then run as the line protocol's are; replies come back already in RESP
/// (the session's format).
extension EventLoop {
    /// Makes `c` a RESP connection (it is not greeted: a RESP client speaks first).
    func startRESP(_ c: Connection) {
        c.resp = RESPExchange(maxRequest: config.maxLine, unauthenticated: c.session.authRequired)
        c.session.format = .resp2
    }

    /// Handles `n` bytes just read into `readBuffer` for the RESP connection `c`.
    func takeRESP(_ c: Connection, _ x: RESPExchange, _ n: Int) {
        readBuffer.withUnsafeBytes { x.decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        var units: [LineUnit] = []
        let requests = RESPRequests { self.respServer(c) }
        while !x.failed, let r = x.decoder.next() {
            c.lastRequest = nowSeconds
            c.hasRequested = true
            switch r {
            case .fatal(let why):
                // Redis's rule: the framing is lost, so the error is the last reply.
                x.failed = true
                var out: [UInt8] = []
                RESPWriter(resp3: x.resp3).error("ERR", why, into: &out)
                units.append(.answer(out, format: nil, close: true))
            case .multibulk(let elements):
                guard let words = EventLoop.utf8Words(elements) else {
                    units.append(.failure(tag: nil, TabulaError(.encoding, "every argument must be UTF-8 text; send names and titles as UTF-8")))
                    continue
                }
                units += requests.units(words, x)
            case .inline(let line):
                switch Tokenizer.tokenize(line[...]) {
                case .failure(let e): units.append(.failure(tag: nil, e))
                case .success(let words): units += requests.units(words, x)
                }
            }
        }
        guard notePartialInput(c) else { return }
        if c.atEngine || c.replay != nil || !c.held.isEmpty {
            c.held += units
            c.heldBytes += n
        } else {
            run(c, units[...])
        }
        refreshReading(c)
    }

    private func respServer(_ c: Connection) -> RESPRequests.Server {
        let state = executor.state
        return RESPRequests.Server(
            connection: c.id, historyID: state.historyID, revision: state.publishedRevision.load(ordering: .acquiring), port: config.port,
            uptimeSeconds: Int((ContinuousClock.now - stats.started).components.seconds))
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
