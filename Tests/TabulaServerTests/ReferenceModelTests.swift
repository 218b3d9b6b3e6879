import Foundation
import Testing
import TabulaClient
import TabulaProtocol
import TabulaServer
import TabulaTestSupport

/// Random item requests (ADD, SET value and name, FAV, MV, RM, FILTER) against a server and
/// against `ReferenceItems`, a model of Protocol.md's rules that shares no code with the
/// server: each request is taken or refused with the same code, and after each one
/// `LS /items` shows the same sections, counts and items in the same order. Values cluster
/// at the band edge ($49, $50, $51), so a section rule off by one shows. A failure names
/// its seed and the requests so far.
@Suite struct ReferenceModelTests {
    static let values = [0, 1, 12, 49, 50, 51, 99, 150]

    /// One random request and what the reference makes of it.
    static func step(_ ref: inout ReferenceItems, _ g: inout SplitMix64) -> (String, ReferenceItems.Outcome) {
        let ids = ref.sections.flatMap { $0.map(\.id) } + [ref.nextID + 7]
        let id = ids[Int(g.next() % UInt64(ids.count))]
        let v = values[Int(g.next() % UInt64(values.count))]
        switch g.next() % 11 {
        case 0, 1:
            let name = "n\(g.next() % 100)"
            return ("ADD /items \"\(name)\" \(v)", ref.add(name: name, value: v))
        case 2, 3: return ("SET /items/\(id) value=\(v)", ref.setValue(id, v))
        case 4: return ("SET /items/\(id) name=m\(v)", ref.setName(id, "m\(v)"))
        case 5, 6:
            let how = g.next() % 3
            return ("FAV /items/\(id)" + ["", " on", " off"][Int(how)], ref.fav(id, how == 0 ? nil : how == 1))
        case 7, 8:
            let k = 1 + Int(g.next() % 5)
            return ("MV /items/\(id) \(k)", ref.move(id, to: k))
        case 9: return ("RM /items/\(id)", ref.remove(id))
        default:
            let favorites = g.next() % 2 == 0
            return ("FILTER " + (favorites ? "favorites" : "all"), ref.filter(favorites: favorites))
        }
    }

    /// `LS /items` as the reference writes it: `== section count`, then `id name $value ★`.
    static func listed(_ c: TabulaConnection) throws -> [String] {
        try c.request("LS /items LIMIT 10000").reply.rows.map { $0.json.resolved }.compactMap { row -> String? in
            switch row["type"]?.stringValue {
            case "section":
                return "== \(row["name"]?.stringValue ?? "?") \(row["count"].map { "\($0.intValue ?? -1)" } ?? "?")"
            case "item":
                let fav = row["favorite"] == .bool(true) ? " ★" : ""
                return
                    "\(row["id"]?.intValue ?? -1) \(row["name"]?.stringValue ?? "?") $\(row["value"]?.intValue ?? -1)\(fav)"
            default: return nil
            }
        }
    }

    @Test(arguments: ["memory", "sqlite"])
    func itemRequestsAreAnsweredAndListedAsTheReferenceModelSays(store kind: String) throws {
        var outcomes: [String: Int] = [:]  // "MV taken", "FILTER CONFLICT", …: what the seeds drew
        for seed in UInt64(1)...6 {
            try withServer(store: try makeStore(kind)) { s in
                let c = try connect(s)
                _ = try c.request("FORMAT json")
                let first = try c.request("LS /items LIMIT 10000").reply.rows.map { $0.json.resolved }.filter {
                    $0["type"]?.stringValue == "item"
                }
                var ref = ReferenceItems(
                    seed: first.map {
                        (
                            Int($0["id"]?.intValue ?? 0), $0["name"]?.stringValue ?? "",
                            Int($0["value"]?.intValue ?? 0), $0["favorite"] == .bool(true)
                        )
                    })
                var g = SplitMix64(seed: seed)
                var sent: [String] = []
                // First no favourites, so that FILTER favorites is taken with none once (each
                // applied to the reference in its turn).
                typealias Opening = (line: String, apply: (inout ReferenceItems) -> ReferenceItems.Outcome)
                var opening: [Opening] = ref.sections.flatMap { $0 }.filter(\.favorite).map { item in
                    ("FAV /items/\(item.id) off", { $0.fav(item.id, false) })
                }
                opening.append(("FILTER favorites", { $0.filter(favorites: true) }))
                for k in 0..<(150 + opening.count) {
                    let (line, want) =
                        k < opening.count ? (opening[k].line, opening[k].apply(&ref)) : Self.step(&ref, &g)
                    sent.append(line)
                    let r = try c.request(line)
                    let got: ReferenceItems.Outcome = r.isOK ? .taken : .refused(r.reply.error?.code.rawValue ?? "?")
                    outcomes[String(line.prefix { $0 != " " }) + (r.isOK ? " taken" : " refused"), default: 0] += 1
                    try #require(
                        got == want,
                        "seed \(seed) on \(kind): \(line) was \(r.final), the reference says \(want); after \(sent.suffix(8))"
                    )
                    let shown = try Self.listed(c)
                    try #require(
                        shown == ref.listed,
                        "seed \(seed) on \(kind) after \(line): LS shows \(shown), the reference \(ref.listed); after \(sent.suffix(8))"
                    )
                }
            }
        }
        let drawn = [
            "ADD taken", "SET taken", "SET refused", "FAV taken", "FAV refused", "MV taken", "MV refused", "RM taken",
            "RM refused", "FILTER taken",
        ]
        #expect(
            drawn.allSatisfy { outcomes[$0, default: 0] > 0 },
            "the seeds drew too few of some: \(outcomes.sorted { $0.key < $1.key })")
    }

    /// `LS /settings` and `LS /orders` as `ReferenceSettingsAndOrders` writes them.
    static func listedSettingsAndOrders(_ c: TabulaConnection) throws -> [String] {
        let settings = try c.request("LS /settings").reply.rows.map { $0.json.resolved }.map { row -> String in
            let value = row["value"].map { $0.stringValue ?? $0.intValue.map { "\($0)" } ?? "?" } ?? "?"
            return "\(row["name"]?.stringValue ?? "?"): \(value)"
        }
        let orders = try c.request("LS /orders LIMIT 10000").reply.rows.map { $0.json.resolved }.map { row in
            "order \(row["id"]?.intValue ?? -1) \(row["entry"]?.stringValue ?? "?")"
        }
        return settings + orders
    }

    /// One random SELECT, ORDER or order removal, and what the reference makes of it.
    static func settingsStep(
        _ ref: inout ReferenceSettingsAndOrders, _ g: inout SplitMix64
    ) -> (String, ReferenceItems.Outcome) {
        let names = ref.settings.map(\.name) + ["nothing"], menu = ref.dishes.keys.sorted() + ["nothing"]
        switch g.next() % 8 {
        case 0, 1, 2:
            let n = names[Int(g.next() % UInt64(names.count))], k = Int(g.next() % 6)
            return ("SELECT /settings/\(n) #\(k)", ref.select(n, k))
        case 3, 4, 5:
            let d = menu[Int(g.next() % UInt64(menu.count))]
            return ("ORDER \(d)", ref.order(d))
        case 6:
            let ids = ref.orders.map(\.id) + [0, ref.nextOrder]  // mostly one that is there
            let id = ids[Int(g.next() % UInt64(ids.count))]
            return ("RM /orders/\(id)", ref.removeOrder(id))
        default: return ("RM /orders", ref.clearOrders())
        }
    }

    /// The menu's entries by name: their paths and titles.
    static func dishes(_ c: TabulaConnection) throws -> [String: (path: String, title: String)] {
        var dishes: [String: (path: String, title: String)] = [:]
        for section in try c.request("LS /menu").reply.rows.compactMap({ $0.json.resolved["name"]?.stringValue }) {
            for e in try c.request("LS /menu/\(section)").reply.rows.map({ $0.json.resolved }) {
                if let n = e["name"]?.stringValue, let p = e["path"]?.stringValue {
                    dishes[n] = (p, e["title"]?.stringValue ?? "")
                }
            }
        }
        return dishes
    }

    @Test(arguments: ["memory", "sqlite"])
    func settingsAndOrdersAreAnsweredAndListedAsTheReferenceModelSays(store kind: String) throws {
        for seed in UInt64(1)...4 {
            try withServer(store: try makeStore(kind)) { s in
                let c = try connect(s)
                _ = try c.request("FORMAT json")
                let settings = try c.request("LS /settings").reply.rows.map { $0.json.resolved }.map { row in
                    ReferenceSettingsAndOrders.Setting(
                        name: row["name"]?.stringValue ?? "",
                        options: (row["options"]?.arrayValue ?? []).map {
                            $0.stringValue ?? $0.intValue.map { "\($0)" } ?? "?"
                        },
                        selected: Int(row["selected"]?.intValue ?? 0))
                }
                let dishes = try Self.dishes(c)
                var ref = ReferenceSettingsAndOrders(settings: settings, dishes: dishes)
                var g = SplitMix64(seed: seed)
                var sent: [String] = []
                for _ in 0..<120 {
                    let (line, want) = Self.settingsStep(&ref, &g)
                    sent.append(line)
                    let r = try c.request(line)
                    let got: ReferenceItems.Outcome = r.isOK ? .taken : .refused(r.reply.error?.code.rawValue ?? "?")
                    try #require(
                        got == want,
                        "seed \(seed) on \(kind): \(line) was \(r.final), the reference says \(want); after \(sent.suffix(8))"
                    )
                    let shown = try Self.listedSettingsAndOrders(c)
                    try #require(
                        shown == ref.listed,
                        "seed \(seed) on \(kind) after \(line): the server lists \(shown), the reference \(ref.listed)")
                }
            }
        }
    }
}
