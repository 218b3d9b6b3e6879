import TabulaProtocol

/// The line protocol's decoding on the loop.
extension EventLoop {
    /// The line protocol: cuts `bytes` (and what `c` had begun) into lines and parses each
    /// into `units`, returning how many lines ended.
    func decodeLines(_ c: Connection, _ bytes: UnsafeRawBufferPointer) -> Int {
        c.decoder.append(bytes)
        var count = 0
        while let unit = c.decoder.next() {
            count += 1
            switch unit {
            case .tooLong:
                units.append(.failure(tag: nil, TabulaError(.tooLong, "line longer than \(config.maxLine) bytes; the rest of it was skipped")))
            case .line(let line):
                if ForeignProtocol.isHTTP(line) {  // the goodbye, and nothing after it runs
                    log.log(.info, "closing connection \(c.id.raw) from \(c.peer): it sent an HTTP line to the line port", conn: c.id.raw)
                    units.append(.answer(goodbye(c, .notThisProtocol) ?? [], format: nil, close: true))
                    return count
                }
                switch RequestParser.parse(line) {
                case nil: continue
                case .failure(let f)?: units.append(.failure(tag: f.tag, f.error))
                case .success(let r)?: units.append(.request(r))
                }
            }
        }
        return count
    }
}
