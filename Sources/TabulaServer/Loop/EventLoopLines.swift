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
                units.append(
                    .failure(
                        tag: nil,
                        TabulaError(.tooLong, "line longer than \(config.maxLine) bytes; the rest of it was skipped")))
            case .line(let line):
                if ForeignProtocol.isHTTP(line) {  // the goodbye, and nothing after it runs
                    log.log(
                        .info, "closing connection \(c.id.raw) from \(c.peer): it sent an HTTP line to the line port",
                        conn: c.id.raw)
                    units.append(.answer(goodbye(c, .notThisProtocol) ?? [], format: nil, close: true))
                    return count
                }
                if line.first == UInt8(ascii: "*"), line.count > 1,
                    line.dropFirst().allSatisfy({ $0 >= 48 && $0 <= 57 })
                {
                    // A RESP multibulk header: a RESP client on a line connection (its replies
                    // would never parse); the goodbye says so at once, not after its timeout.
                    units.append(.answer(goodbye(c, .respAfterLines) ?? [], format: nil, close: true))
                    return count
                }
                if c.session.authRequired && c.session.user == nil && line.count > RequestGate.preLoginElementBytes {
                    let why =
                        "a line of \(line.count) bytes before a login is over the bound of \(RequestGate.preLoginElementBytes); log in first (AUTH name secret)"
                    units.append(.answer(goodbye(c, .overBound(why)) ?? [], format: nil, close: true))
                    return count
                }
                switch RequestParser.parse(line) {
                case nil: continue
                case .success(let r)? where c.transaction == nil && !TransactionQueue.isOwn(r.command.verb):
                    units.append(request: r)
                case .failure(let f)? where c.transaction == nil: units.append(.failure(tag: f.tag, f.error))
                case .success(let r)?: units.append(transactionUnit(c, .success(r), tag: r.tag, bytes: line.count))
                case .failure(let f)?:
                    units.append(transactionUnit(c, .failure(f.error), tag: f.tag, bytes: line.count))
                }
            }
        }
        return count
    }

    /// How the line protocol answers a line of a transaction (in one, or MULTI, EXEC, DISCARD).
    private func transactionUnit(_ c: Connection, _ parsed: Result<Request, TabulaError>, tag: String?, bytes: Int)
        -> LineUnit
    {
        // Not the transaction's: as any line.
        guard let step = TransactionQueue.step(&c.transaction, parsed, bytes: bytes) else {
            switch parsed {
            case .success(let r): return .request(r)
            case .failure(let e): return .failure(tag: tag, e)
            }
        }
        switch step {
        case .begun:
            return .reply(
                Reply(
                    message: "transaction begun: requests are queued until EXEC runs them as one (DISCARD drops them)"),
                tag: tag)
        case .queued(let n): return .reply(Reply(message: "queued (\(n))"), tag: tag)
        case .refused(let e): return .failure(tag: tag, e)
        case .run(let requests):
            return requests.isEmpty
                ? .reply(Reply(message: "0 applied as one"), tag: tag) : .transaction(requests, tag: tag)
        case .aborted(let why):
            return .failure(
                tag: tag,
                TabulaError(
                    .invalid,
                    "the transaction was discarded, nothing applied: a request was refused while queued (\(why)); MULTI to begin again"
                ))
        case .dropped: return .reply(Reply(message: "discarded"), tag: tag)
        }
    }
}
