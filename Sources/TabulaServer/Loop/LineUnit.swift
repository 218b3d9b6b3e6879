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

/// A unit with where it runs and how, decided once, as it is decoded (`Dispatcher.route`):
/// the loop, the engine and the authenticator read these, never decide them again.
struct RoutedUnit: Sendable {
    let unit: LineUnit
    let route: Dispatcher.Route
    /// Its verb's threading traits (a default for a unit that is not a request).
    let server: ServerTraits

    init(_ unit: LineUnit, durable: Bool, stats: ServerStats) {
        (route, server) = Dispatcher.route(unit, durable: durable, stats: stats)
        self.unit = unit
    }

    /// A request's unit: routed from the request itself, before it is wrapped (no copy of it).
    init(request: consuming Request, durable: Bool, stats: ServerStats) {
        (route, server) = Dispatcher.route(request, durable: durable, stats: stats)
        unit = .request(request)
    }
}

extension ArraySlice<RoutedUnit> {
    /// The route of the unit at `i`, read in place (no copy of the unit).
    func route(at i: Int) -> Dispatcher.Route { withUnsafeBufferPointer { $0[i - startIndex].route } }
}

/// Where a codec appends the units it decodes: each is routed as it is appended.
struct RoutedUnits {
    private(set) var all: [RoutedUnit] = []
    let durable: Bool
    let stats: ServerStats

    init(durable: Bool, stats: ServerStats) {
        self.durable = durable
        self.stats = stats
    }

    mutating func append(_ unit: LineUnit) { all.append(RoutedUnit(unit, durable: durable, stats: stats)) }

    mutating func append(request: consuming Request) {
        all.append(RoutedUnit(request: request, durable: durable, stats: stats))
    }

    static func += (units: inout RoutedUnits, more: [LineUnit]) {
        for u in more { units.append(u) }
    }

    mutating func removeAll() { all.removeAll(keepingCapacity: true) }

    /// `unit` routed as these are, on its own.
    func routed(_ unit: LineUnit) -> RoutedUnit { RoutedUnit(unit, durable: durable, stats: stats) }
}
