import Foundation
import Testing
import TabulaAccess
import TabulaClient
import TabulaModel
import TabulaProtocol
import TabulaServer

/// Random grants (allows and denies over /items, /orders, /menu, /catalog and settings'
/// options) and random writes by an admin; every push a user with those grants is sent,
/// live in JSON, in text, over RESP3 and as Server-Sent Events, and in a replay from 0, is checked against an oracle that
/// shares no code with the server (its own prefix rules and the names each denied path
/// hides) and against the user's own `LS`: the counts an event states, and the positions it
/// places its entry at (`at`, and `from` as that `LS` showed it before the write). A failure
/// names its seed.
@Suite struct GrantedEventsGeneratedTests {
    /// Denied paths and the words that would show them (a title, a name).
    static let denials: [(String, [String])] = [
        ("/menu/pizza/margherita", ["argherita"]), ("/menu/dessert/tiramisu", ["iramisu"]),
        ("/catalog/item-2/item-2.2", ["Item 2.2", "item-2.2"]), ("/catalog/item-3", ["Item 3", "item-3"]),
        ("/items/3", ["Shiny Mac"]), ("/settings/my-int/64", []), ("/settings/my-string/green", []),
    ]
    static let allows: [[String]] = [[], ["/items", "/orders", "/menu"], ["/catalog"], ["/orders", "/settings"]]

    static let writes: [String] = [
        "ORDER margherita", "ORDER pepperoni", "ORDER tiramisu", "ORDER gelato", "RM /orders/1", "RM /orders/2",
        "RM /orders", "SELECT /settings/my-int #1", "SELECT /settings/my-int #4", "SELECT /settings/my-string #2",
        "SELECT /settings/my-string #3", "SET /catalog/item-2 title=Two", "ADD /catalog/item-2 Extra",
        "RM /catalog/item-2/extra", "SET /catalog/item-3 title=Three", "FAV /items/3", "FAV /items/1",
        "SET /items/3 value=70", "MV /items/4 1", "ADD /menu/dessert Sorbet", "RM /menu/dessert/sorbet",
        "ADD /settings/my-int 128", "RM /settings/my-int/128", "MV /items/4 2", "SET /items/1 value=60",
        "SET /items/1 value=10",
    ]

    /// The oracle's own prefix rule.
    static func under(_ path: String, _ prefix: String) -> Bool { path == prefix || path.hasPrefix(prefix + "/") }

    struct Oracle {
        let allow: [String]
        let deny: [String]
        var words: [String] { GrantedEventsGeneratedTests.denials.filter { deny.contains($0.0) }.flatMap(\.1) }
        func covers(_ p: String) -> Bool {
            !deny.contains { under(p, $0) } && (allow.isEmpty || allow.contains { under(p, $0) })
        }

        /// What is wrong with push `line` (JSON) for this user, or nil.
        func fault(json line: String) -> String? {
            for w in words where line.contains(w) { return "it names '\(w)'" }
            guard let e = JSONParser.parse(line), e["push"] == .string("event"), let path = e["path"]?.stringValue
            else { return nil }
            if !covers(path) { return "an event at \(path)" }
            for v in [e["value"], e["prev"]] {
                if let entry = v?["entry"]?.stringValue, deny.contains(where: { under(entry, $0) }) {
                    return "an order of \(entry)"
                }
                if case .array(let options)? = v?["options"] {
                    for o in options {
                        let name: String
                        switch o {
                        case .int(let n): name = String(n)
                        case .string(let s): name = s.lowercased()
                        default: continue
                        }
                        if deny.contains(path + "/" + name) { return "option \(name) of \(path)" }
                    }
                }
            }
            return nil
        }
    }

    static func random(_ g: inout SplitMix64) -> Oracle {
        let allow = allows[Int(g.next() % UInt64(allows.count))]
        let deny = denials.map(\.0).filter { _ in g.next() % 2 == 0 }
        return Oracle(allow: allow, deny: deny)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func everyFieldOfEveryPushIsWhatTheUsersGrantsShow(seed: UInt64) throws {
        var g = SplitMix64(seed: seed)
        let oracle = Self.random(&g)
        let users: [String: UserEntry] = [
            "admin": AccessControlTests.user("admin", .admin),
            "u": AccessControlTests.user("u", .read, allow: oracle.allow, deny: oracle.deny),
        ]
        try withServer({
            $0.users = users
            $0.httpPort = 0
        }) { s in
            let sse = try HTTPTestClient(port: try #require(s.httpPort))  // an event stream of everything
            sse.send("GET /events?prefix=/ HTTP/1.1\r\nHost: localhost\r\n\(HTTPAuthTests.basic("u"))\r\n\r\n")
            _ = try sse.waitFor("watching /")
            let json = try AccessControlTests.login(s, "u"), text = try AccessControlTests.login(s, "u")
            #expect(try json.request("FORMAT json").isOK)
            #expect(try json.request("WATCH /").isOK && text.request("WATCH /").isOK)
            let resp = try RESPTestClient(port: s.port)  // RESP3, subscribed to everything
            #expect(try resp.call("HELLO", "3", "AUTH", "u", "pw-u")["proto"] == .integer(3))
            resp.send("SUBSCRIBE", "/")
            _ = try resp.take(through: "subscribe")
            let admin = try AccessControlTests.login(s, "admin")
            for round in 0..<40 {
                let w = Self.writes[Int(g.next() % UInt64(Self.writes.count))]
                let named = w.split(separator: " ").dropFirst().first.map(String.init) ?? ""
                let before = named.hasPrefix("/") ? try Self.place(of: named, as: json) : nil
                _ = try admin.request(w)
                try checkRESP(resp, round: round, oracle, after: w, seed: seed)
                let pushed = try GrantedEventTests.lines(json)
                for line in pushed {
                    if let f = oracle.fault(json: line) {
                        Issue.record("seed \(seed), \(oracle), after \(w): \(f): \(line)")
                    }
                    try checkCounts(line, as: json, seed: seed)
                    try checkPlaces(line, as: json, before: named == path(of: line) ? before : nil, seed: seed)
                }
                for line in try GrantedEventTests.lines(text) where oracle.words.contains(where: line.contains) {
                    Issue.record("seed \(seed), \(oracle), after \(w): the text names what is hidden: \(line)")
                }
            }
            // The stream's end: a change every drawn user sees (its orders, or else a catalog node).
            let last = try admin.request(oracle.covers("/orders") ? "ORDER pepperoni" : "ADD /catalog/item-1 Last")
            let streamed = HTTPTestClient.sseBody(try sse.waitFor("id: \(try #require(last.reply.rev))\n"))
            for line in streamed.components(separatedBy: "\n") where line.hasPrefix("data: ") {
                if let f = oracle.fault(json: String(line.dropFirst(6))) {
                    Issue.record("seed \(seed), \(oracle), SSE: \(f): \(line)")
                }
            }
            let replay = try AccessControlTests.login(s, "u")
            #expect(try replay.request("FORMAT json").isOK)
            #expect(try replay.request("WATCH / FROM 0").isOK)
            for line in try GrantedEventTests.lines(replay) {
                if let f = oracle.fault(json: line) { Issue.record("seed \(seed), \(oracle), replayed: \(f): \(line)") }
            }
        }
    }

    /// Every push the RESP3 client was sent up to the PING of `round` is what `oracle` allows.
    func checkRESP(_ resp: RESPTestClient, round: Int, _ oracle: Oracle, after w: String, seed: UInt64) throws {
        resp.send("PING", "round-\(round)")
        for line in try resp.take(through: "round-\(round)").components(separatedBy: "\r\n") where line.hasPrefix("{") {
            if let f = oracle.fault(json: line) { Issue.record("seed \(seed), RESP3, after \(w): \(f): \(line)") }
        }
    }

    /// The event's path.
    func path(of line: String) -> String? { JSONParser.parse(line)?["path"]?.stringValue }

    /// Where `path` stands in the user's own `LS` of its parent (its section where the list
    /// has sections, and its 1-based position in it), or nil when it is not listed.
    static func place(of path: String, as c: TabulaConnection) throws -> Placement? {
        let parent = ModelPath.parent(path)
        let listed = try c.request("LS \(parent) LIMIT 1000")
        guard listed.isOK else { return nil }
        var section: String?
        var position = 0
        for row in listed.reply.rows {
            let o = row.json.resolved
            if o["type"]?.stringValue == "section" {
                (section, position) = (o["name"]?.stringValue, 0)
                continue
            }
            position += 1
            let name = o["id"]?.intValue.map { String($0) } ?? o["name"]?.stringValue ?? ""
            if (parent == "/" ? "" : parent) + "/" + name == path {
                return Placement(section: section, position: position)
            }
        }
        return nil
    }

    /// The positions an event places its entry at are where the user's own `LS` shows it now
    /// (`at`) and showed it before the write (`from`, given as `before`).
    func checkPlaces(_ line: String, as c: TabulaConnection, before: Placement?, seed: UInt64) throws {
        guard let e = JSONParser.parse(line), e["push"] == .string("event"), let path = e["path"]?.stringValue
        else { return }
        if let at = Placement(json: e["at"]), at.position != nil {
            let listed = try Self.place(of: path, as: c)
            if listed != at {
                Issue.record("seed \(seed): \(path) at \(at), its LS shows \(String(describing: listed)): \(line)")
            }
        }
        if let from = Placement(json: e["from"]), from.position != nil, let before, from != before {
            Issue.record("seed \(seed): \(path) from \(from), its LS showed \(before): \(line)")
        }
        if e["at"] != nil || e["from"] != nil, Placement(json: e["at"] ?? e["from"])?.position == nil {
            Issue.record("seed \(seed): \(path) placed with no position: \(line)")
        }
    }

    /// A count of children an event states is the one the user's own `LS` of that path gives.
    func checkCounts(_ line: String, as c: TabulaConnection, seed: UInt64) throws {
        guard let e = JSONParser.parse(line), e["push"] == .string("event"), let path = e["path"]?.stringValue,
            let stated = e["value"]?["children"]?.intValue ?? e["value"]?["entries"]?.intValue
        else { return }
        let listed = try c.request("LS \(path) LIMIT 1000")
        guard listed.isOK else { return }  // gone since
        let seen = listed.reply.rows.count
        if Int(stated) != seen {
            Issue.record("seed \(seed): \(path) said \(stated) children, LS shows \(seen): \(line)")
        }
    }
}
