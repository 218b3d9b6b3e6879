import Foundation
import TabulaProtocol

/// Turns one RESP request (its words) into what the server runs: Tabula's verbs as they
/// are, Redis's connection commands (HELLO, AUTH pass, SELECT 0, CLIENT, CONFIG GET, INFO,
/// COMMAND, SUBSCRIBE, UNSUBSCRIBE) answered here or mapped onto verbs. Each request gives
/// one unit, and SUBSCRIBE/UNSUBSCRIBE one per prefix (Redis answers each prefix).
struct RESPRequests {
    /// What the answers describe, read only when an answer needs it (HELLO, CLIENT ID, INFO).
    let describe: () -> ServerFacts
    var server: ServerFacts { describe() }

    /// The units for `words`, updating `x` (the RESP version and name as of this request).
    /// A Tabula verb that RESP does not take otherwise is parsed at once (the hot path: no
    /// upper-casing, no string compares).
    func units(_ words: [String], _ x: RESPExchange) -> [LineUnit] {
        guard let first = words.first else { return [] }
        let verb = Verb.named(first)
        if x.transaction != nil || TransactionQueue.isOwn(verb) { return [transaction(words, x)] }
        switch verb {
        case .select?, .auth?, .format?, .watch?, .unwatch?, nil: break
        default: return parsed(words)
        }
        let args = Array(words.dropFirst())
        switch first.uppercased() {
        case "HELLO": return [hello(args, x)]
        case "AUTH" where args.count == 1:
            return [.request(Request(command: .auth(name: "default", secret: args[0])))]
        case "AUTH": return parsed(words)
        case "SELECT" where args.count == 1 && args[0].allSatisfy(\.isNumber): return [selectDB(args[0], x)]
        case "CLIENT": return [client(args, x)]
        case "CONFIG": return [config(args, x)]
        case "INFO": return [answer(.bulk(info), x)]
        case "LATENCY": return [answer(.array([]), x)]  // no latency events are recorded: none to tell
        case "ECHO" where args.count == 1: return [answer(.bulk(args[0]), x)]
        case "ECHO": return [error(.syntax, "ECHO takes one message: ECHO hello", x)]
        case "COMMAND": return [command(args, x)]
        case "SUBSCRIBE":
            guard !args.isEmpty else {
                return [error(.syntax, "SUBSCRIBE takes one or more prefixes, e.g. SUBSCRIBE /orders", x)]
            }
            return args.map { subscribing(.watch(prefix: $0, from: nil)) }
        case "UNSUBSCRIBE":
            guard !args.isEmpty else { return [subscribing(.unwatch(prefix: nil))] }
            return args.map { subscribing(.unwatch(prefix: $0)) }
        case "PSUBSCRIBE", "PUNSUBSCRIBE", "SSUBSCRIBE":
            return [
                error(
                    .unknown,
                    "patterns are not taken: a prefix covers everything under it, so SUBSCRIBE /items receives every item's changes",
                    x)
            ]
        case "FORMAT":
            return [error(.invalid, "a RESP connection keeps RESP; HELLO 2 or HELLO 3 chooses its version", x)]
        default: return parsed(words)
        }
    }

    /// Redis's `SELECT db`: Tabula has one database, 0.
    private func selectDB(_ db: String, _ x: RESPExchange) -> LineUnit {
        guard db != "0" && Int(db) != 0 else { return status("OK", x) }
        return error(
            .invalid,
            "DB index is out of range: Tabula has one database, 0; SELECT with a path and an option selects a setting's option",
            x)
    }

    /// `CONFIG GET name…`: the parameters clients ask at connecting, as Redis would answer
    /// them for a server like this one (`save` "", none; `appendonly` whether writes are
    /// flushed), the others left out (Redis answers an unknown name with nothing too);
    /// nothing else of CONFIG.
    private func config(_ args: [String], _ x: RESPExchange) -> LineUnit {
        guard args.first?.uppercased() == "GET" else {
            return error(
                .unknown, "CONFIG takes only GET here (answered empty); Tabula is configured by tabulad's flags", x)
        }
        var pairs: [(String, RESPValue)] = []
        for name in args.dropFirst() {
            switch name.lowercased() {
            case "save": pairs.append(("save", .bulk("")))
            case "appendonly": pairs.append(("appendonly", .bulk(server.durable ? "yes" : "no")))
            default: continue
            }
        }
        return answer(.map(pairs), x)
    }

    /// A request of a transaction (`TransactionQueue.step`), answered as Redis answers it:
    /// `+OK` for MULTI and DISCARD, `+QUEUED`, an error (which makes EXEC discard the
    /// transaction), EXEC's array, or `-EXECABORT`.
    private func transaction(_ words: [String], _ x: RESPExchange) -> LineUnit {
        let bytes = words.reduce(0) { $0 + $1.utf8.count + 1 }
        switch TransactionQueue.step(&x.transaction, RequestParser.parseRequest(tokens: words), bytes: bytes) {
        case .begun?, .dropped?: return status("OK", x)
        case .queued?: return status("QUEUED", x)
        case .refused(let e)?: return .failure(tag: nil, e)
        case .run(let requests)?: return requests.isEmpty ? answer(.array([]), x) : .transaction(requests, tag: nil)
        case .aborted(let why)?:
            return error(
                .invalid, "EXECABORT Transaction discarded because of previous errors (\(why))", x, code: "EXECABORT")
        case nil: return parsed(words).first ?? .failure(tag: nil, TabulaError(.syntax, "an empty request"))
        }
    }

    /// A WATCH or UNWATCH answered as SUBSCRIBE and UNSUBSCRIBE are.
    private func subscribing(_ c: Command) -> LineUnit {
        var r = Request(command: c)
        r.subscribeReply = true
        return .request(r)
    }

    /// A Tabula request, parsed from its words (no quoting: RESP's lengths say where words
    /// end). On RESP2 a WATCH enters subscribe mode, so it is answered as SUBSCRIBE is: the
    /// executor decides that by the version the connection has when it runs.
    private func parsed(_ words: [String]) -> [LineUnit] {
        switch RequestParser.parseRequest(tokens: words) {
        case .success(let r):
            return [.request(r)]
        case .failure(let e): return [.failure(tag: nil, e)]
        }
    }

    private func hello(_ args: [String], _ x: RESPExchange) -> LineUnit {
        var i = 0
        var version = x.resp3 ? 3 : 2
        var login: (name: String, secret: String)?
        if let v = args.first {
            guard let n = Int(v), n == 2 || n == 3 else {
                return error(
                    .syntax, "NOPROTO unsupported protocol version '\(v)'; HELLO takes 2 or 3", x, code: "NOPROTO")
            }
            version = n
            i = 1
        }
        while i < args.count {
            switch args[i].uppercased() {
            case "SETNAME" where i + 1 < args.count:
                if let refusal = RESPRequests.nameRefusal(args[i + 1]) { return error(.syntax, refusal, x) }
                x.name = args[i + 1]
                i += 2
            case "AUTH" where i + 2 < args.count:
                login = (args[i + 1], args[i + 2])
                i += 3
            default:
                return error(.syntax, "HELLO takes [2|3] [AUTH name secret] [SETNAME name], not '\(args[i])'", x)
            }
        }
        // The version the connection has from here on, as far as this codec knows: a login's
        // is taken as granted (a refused login leaves the connection's format as it was, and
        // then only a later version-less HELLO's `proto` could say otherwise). Replies in
        // between are written in the version the connection has when they run.
        if args.first != nil { x.resp3 = version == 3 }
        let map: RESPValue = .map([
            ("server", .bulk("tabulad")), ("version", .bulk(ServerConfig.version)), ("proto", .integer(Int64(version))),
            ("id", .integer(Int64(clamping: server.connection.raw))), ("mode", .bulk("standalone")),
            ("role", .bulk("master")), ("modules", .array([])),
        ])
        let format: WireFormat? = args.first == nil ? nil : version == 3 ? .resp3 : .resp2
        guard let login else { return .answer(map.encoded(resp3: version == 3), format: format, close: false) }
        return .codecLogin(
            name: login.name, secret: login.secret, answer: map.encoded(resp3: version == 3),
            format: format ?? (version == 3 ? .resp3 : .resp2))
    }

    private func client(_ args: [String], _ x: RESPExchange) -> LineUnit {
        switch (args.first?.uppercased(), args.count) {
        case ("SETNAME", 2):
            if let refusal = RESPRequests.nameRefusal(args[1]) { return error(.syntax, refusal, x) }
            x.name = args[1].isEmpty ? nil : args[1]
            return status("OK", x)
        case ("GETNAME", 1): return answer(x.name.map { .bulk($0) } ?? .null, x)
        case ("ID", 1): return answer(.integer(Int64(clamping: server.connection.raw)), x)
        case ("SETINFO", 3): return status("OK", x)
        default: return error(.unknown, "CLIENT takes SETNAME name, GETNAME, ID or SETINFO attr value", x)
        }
    }

    /// The longest client name: each connection keeps its own, shown in CLIENTS.
    static let mostNameBytes = 128

    /// Why `name` cannot be a client's name, if it cannot.
    static func nameRefusal(_ name: String) -> String? {
        if name.contains(where: { $0 == " " || $0.isNewline }) {
            return "Client names cannot contain spaces, newlines or special characters."
        }
        if name.utf8.count > mostNameBytes { return "a client name is at most \(mostNameBytes) bytes" }
        return nil
    }

    private func command(_ args: [String], _ x: RESPExchange) -> LineUnit {
        switch args.first?.uppercased() {
        case nil: return answer(RESPCommandTable.info([]), x)
        case "COUNT": return answer(.integer(Int64(RESPCommandTable.all.count)), x)
        case "INFO": return answer(RESPCommandTable.info(Array(args.dropFirst())), x)
        case "DOCS": return answer(RESPCommandTable.docs(Array(args.dropFirst())), x)
        case "LIST": return answer(RESPCommandTable.list, x)
        default: return error(.unknown, "COMMAND takes COUNT, INFO, DOCS or LIST, not '\(args[0])'", x)
        }
    }

    /// INFO's sections, with the fields Redis tools read (redis-cli --stat, iredis, the
    /// Prometheus exporter): `redis_version` is the Redis whose commands and replies the RESP
    /// codec follows, as other RESP servers report it; `used_memory` is the process's RSS.
    private var info: String {
        let s = server
        return [
            "# Server", "redis_version:7.0.0", "tabula_version:\(ServerConfig.version)", "redis_mode:standalone",
            "os:Linux", "arch_bits:64",
            "process_id:\(getpid())", "tcp_port:\(s.port)", "uptime_in_seconds:\(s.uptimeSeconds)",
            "uptime_in_days:\(s.uptimeSeconds / 86_400)",
            "history_id:\(s.historyID)", "revision:\(s.revision)", "",
            "# Clients", "connected_clients:\(s.connectedClients)", "blocked_clients:0", "",
            "# Memory", "used_memory:\(RESPRequests.residentBytes())", "",
            "# Stats", "total_connections_received:\(s.totalConnections)", "total_commands_processed:\(s.requests)", "",
            "# Replication", "role:master", "connected_slaves:0", "",
            "# Keyspace", "",
        ].joined(separator: "\r\n")
    }

    /// The process's resident set, from /proc/self/statm (0 where it cannot be read).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .ascii) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    private func answer(_ v: RESPValue, _ x: RESPExchange) -> LineUnit { .value(v) }

    private func status(_ s: String, _ x: RESPExchange) -> LineUnit { answer(.simple(s), x) }

    private func error(_ code: ErrorCode, _ message: String, _ x: RESPExchange, code shown: String? = nil) -> LineUnit {
        if let shown {  // a Redis code of its own (NOPROTO), the message after it
            var out: [UInt8] = []
            RESPWriter(resp3: x.resp3).error(shown, String(message.dropFirst(shown.count + 1)), into: &out)
            return .answer(out, format: nil, close: false)
        }
        return .failure(tag: nil, TabulaError(code, message))
    }
}
