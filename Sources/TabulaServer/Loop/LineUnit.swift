import TabulaProtocol

/// One decoded line: a request, or what was wrong with it.
enum LineUnit: Sendable {
    case request(Request)
    case failure(tag: String?, TabulaError)
    /// A reply its codec made itself (RESP's HELLO, COMMAND, CLIENT…), sent in its turn;
    /// `format` switches the connection's format first (HELLO 2|3), `close` closes after it.
    case answer([UInt8], format: WireFormat?, close: Bool)
    /// A value its codec answered itself (RESP's CONFIG GET, CLIENT, COMMAND…), written
    /// when it runs in the RESP version the connection has then: a login before it in the
    /// same read (`HELLO 3 AUTH`) may have switched it.
    case value(RESPValue)
    /// A reply its codec made itself (the line protocol's MULTI, queued requests, DISCARD),
    /// written in the format the connection has when it runs.
    indirect case reply(Reply, tag: String?)
    /// `EXEC`: the requests queued since `MULTI`, run by the engine as one turn on a copy of
    /// the model, all or none (`Engine.processTransaction`).
    case transaction([Request], tag: String?)
    /// A login its codec asked for (RESP's `HELLO v AUTH name secret`), run at the
    /// authenticator as AUTH is, whose success is answered `answer` in `format` and its
    /// failure as AUTH's would be.
    case codecLogin(name: String, secret: String, answer: [UInt8], format: WireFormat)
}
