import TabulaProtocol

/// `COMMAND`, `COMMAND COUNT`, `COMMAND INFO` and `COMMAND DOCS`, from the Verb table and
/// the few commands only RESP clients send: in the shapes Redis gives them, which redis-cli
/// reads for its completion and hints (and asserts on).
public enum RESPCommandTable {
    /// One command as COMMAND describes it.
    public struct Entry: Sendable {
        public let name: String
        public let summary: String
        public let arguments: [Argument]
        /// Redis's arity: the words with the command's own, negative for "at least".
        public let arity: Int
        public let flags: [String]
    }

    /// The version COMMAND DOCS gives as every command's `since`.
    public static let since = "0.1.0"

    /// Commands RESP clients send that are not Tabula verbs (SELECT, AUTH, PING and QUIT are
    /// Tabula's own and take RESP's forms too; see `RESPRequests`).
    static let respOnly: [Entry] = [
        Entry(
            name: "hello", summary: "choose RESP2 or RESP3 and get the server's description",
            arguments: [
                Argument("protover", .number, optional: true),
                Argument("clientname", .text, keyword: "SETNAME", optional: true),
            ], arity: -1, flags: ["fast"]),
        Entry(
            name: "client",
            summary: "CLIENT SETNAME name, GETNAME, ID or SETINFO: this connection's name (shown in CLIENTS) and id",
            arguments: [
                Argument("subcommand", .choice(["SETNAME", "GETNAME", "ID", "SETINFO"])),
                Argument("arg", .text, optional: true, repeated: true),
            ], arity: -2, flags: ["fast"]),
        Entry(
            name: "config", summary: "CONFIG GET: answered empty (Tabula is configured by its flags)",
            arguments: [Argument("subcommand", .choice(["GET"])), Argument("parameter", .text, repeated: true)],
            arity: -3, flags: ["fast"]),
        Entry(
            name: "latency",
            summary:
                "LATENCY LATEST and the rest: answered empty (Tabula records no latency events; /metrics has its histograms)",
            arguments: [Argument("subcommand", .text), Argument("arg", .text, optional: true, repeated: true)],
            arity: -2, flags: ["fast"]),
        Entry(
            name: "echo", summary: "ECHO message: the message back, byte for byte",
            arguments: [Argument("message", .text)], arity: 2, flags: ["fast"]),
        Entry(
            name: "info",
            summary:
                "the server's description as INFO sections (redis_version, tcp_port, connected_clients, used_memory, total_commands_processed, …)",
            arguments: [Argument("section", .text, optional: true)], arity: -1, flags: ["fast"]),
        Entry(
            name: "command",
            summary: "COMMAND [COUNT | INFO name… | DOCS name…]: these verbs as Redis describes commands",
            arguments: [
                Argument("subcommand", .choice(["COUNT", "INFO", "DOCS", "LIST"]), optional: true),
                Argument("name", .text, optional: true, repeated: true),
            ], arity: -1, flags: ["fast"]),
        Entry(
            name: "subscribe",
            summary: "WATCH each prefix; events come as message replies (RESP2 enters subscribe mode)",
            arguments: [Argument("prefix", .path(.any), repeated: true)], arity: -2, flags: ["pubsub"]),
        Entry(
            name: "unsubscribe", summary: "UNWATCH each prefix, or everything",
            arguments: [Argument("prefix", .path(.any), optional: true, repeated: true)], arity: -1, flags: ["pubsub"]),
    ]

    /// Every command: the Verb table's, then RESP's own.
    public static let all: [Entry] = Verb.allCases.map(entry) + respOnly

    static func entry(_ v: Verb) -> Entry {
        let a = v.arity
        let arity = a.lowerBound == a.upperBound && !v.spec.conditional ? a.lowerBound + 1 : -(a.lowerBound + 1)
        let flags: [String]
        switch v.spec.traits.access {
        case .write: flags = ["write"]
        case .read: flags = ["readonly"]
        case .session, .connection: flags = ["fast"]
        }
        return Entry(
            name: v.rawValue.lowercased(), summary: v.summary, arguments: v.spec.arguments, arity: arity, flags: flags)
    }

    static func named(_ name: String) -> Entry? { all.first { $0.name == name.lowercased() } }

    /// `COMMAND` and `COMMAND INFO`: each named command's 10-element description (null for
    /// a name it does not know), or every command's.
    public static func info(_ names: [String]) -> RESPValue {
        let entries: [Entry?] = names.isEmpty ? all : names.map(named)
        return .array(
            entries.map { e in
                guard let e else { return .null }
                return .array([
                    .bulk(e.name), .integer(Int64(e.arity)), .set(e.flags.map { .simple($0) }), .integer(0),
                    .integer(0), .integer(0), .set([.simple("@tabula")]), .set([]), .array([]), .array([]),
                ])
            })
    }

    /// `COMMAND DOCS`: a map of each named command (or every one) to its docs map.
    public static func docs(_ names: [String]) -> RESPValue {
        let entries = names.isEmpty ? all : names.compactMap(named)
        return .map(
            entries.map { e in
                (
                    e.name,
                    .map([
                        ("summary", .bulk(e.summary)), ("since", .bulk(since)), ("group", .bulk("tabula")),
                        ("arguments", .array(e.arguments.map(doc))),
                    ])
                )
            })
    }

    /// `COMMAND LIST`: every command's name.
    public static var list: RESPValue { .array(all.map { .bulk($0.name) }) }

    /// One argument's docs map: name, type, display_text, token (when it has a keyword) and
    /// its optional/multiple flags; a choice is `oneof` its words as pure tokens.
    static func doc(_ a: Argument) -> RESPValue {
        var name = a.name
        while name.hasSuffix("…") || name.hasSuffix(" ") { name.removeLast() }
        var pairs: [(String, RESPValue)] = [("name", .bulk(name))]
        switch a.kind {
        case .choice(let words):
            pairs.append(("type", .bulk("oneof")))
            pairs.append(
                (
                    "arguments",
                    .array(
                        words.map {
                            .map([
                                ("name", .bulk($0)), ("type", .bulk("pure-token")), ("display_text", .bulk($0)),
                                ("token", .bulk($0.uppercased())),
                            ])
                        })
                ))
        case .number: pairs.append(("type", .bulk("integer")))
        default: pairs.append(("type", .bulk("string")))
        }
        pairs.append(("display_text", .bulk(name)))
        if let k = a.keyword { pairs.append(("token", .bulk(k))) }
        var flags: [RESPValue] = []
        if a.optional { flags.append(.simple("optional")) }
        if a.repeated { flags.append(.simple("multiple")) }
        if !flags.isEmpty { pairs.append(("flags", .set(flags))) }
        return .map(pairs)
    }
}
