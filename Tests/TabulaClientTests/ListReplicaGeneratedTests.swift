import Testing
import Foundation
import TabulaClient
import TabulaModel
import TabulaProtocol

/// A replica kept from events alone equals the list: random writes to all four lists (and
/// the settings) run on a model, each event goes to a replica of every list, and after every
/// write each replica's rows are the model's own `LS` of that list (rows, order, sections,
/// counts, marks, revisions). The replica knows no rule of the lists; the model is the oracle.
@Suite struct ListReplicaGeneratedTests {
    static let lists = [
        "/items", "/orders", "/menu", "/menu/pizza", "/menu/pasta", "/catalog", "/catalog/item-1", "/catalog/item-2",
        "/settings", "/settings/my-int",
    ]

    /// The rows `LS path` shows (JSON, with revisions), every page, as a snapshot sends them.
    static func snapshot(_ m: Model, _ path: String) -> [(path: String?, value: JSONValue)] {
        var v = Viewer()
        v.wantsRevisions = true
        var out: [(String?, JSONValue)] = []
        var after: String?
        repeat {
            guard let reply = m.read(.ls(path: path, limit: 7, after: after), viewer: &v), reply.error == nil else {
                return out
            }
            out += reply.rows.map { ($0.path?.string, $0.json.resolved) }
            after = reply.message.range(of: " AFTER ", options: .backwards).map {
                String(reply.message[$0.upperBound...])
            }
        } while after != nil
        return out
    }

    static func replica(of m: Model, _ path: String) -> ListReplica {
        var r = ListReplica(path: path)
        r.beginSnapshot()
        for row in snapshot(m, path) { r.takeRow(path: row.path, value: row.value) }
        r.synced(m.revision)
        return r
    }

    /// What `LS` shows, without the empty-section line (a replica's `rows` leave it out).
    static func listed(_ m: Model, _ path: String) -> [JSONValue] {
        snapshot(m, path).map(\.value).filter { $0["type"]?.stringValue != "empty" }
    }

    /// A random write to one of the lists, over what the model holds now.
    static func write(_ m: Model, _ g: inout SplitMix64) -> String { write(revision: m.revision, &g) }

    /// A random write, the model at `revision` (orders are numbered up to it).
    static func write(revision: UInt64, _ g: inout SplitMix64) -> String {
        let items = (1...12).map { "/items/\($0)" }
        let item = items.randomElement(using: &g)!
        let price = Int.random(in: 1...120, using: &g)
        let menus = ["/menu/pizza", "/menu/pasta"]
        let menu = menus.randomElement(using: &g)!
        let catalogs = ["/catalog", "/catalog/item-1", "/catalog/item-2"]
        let node = catalogs.randomElement(using: &g)!
        let name = ["Ada", "Bo", "Cy", "Di", "Ed"].randomElement(using: &g)!
        switch Int.random(in: 0..<17, using: &g) {
        case 0, 1: return "ADD /items \(name) \(price)"
        case 2: return "SET \(item) value=\(price)"
        case 3: return "SET \(item) name=\(name)\(price)"
        case 4, 5: return "MV \(item) \(Int.random(in: 1...4, using: &g))"
        case 6: return "FAV \(item)"
        case 7: return "RM \(item)"
        case 8, 9: return "ORDER \(["margherita", "pepperoni", "carbonara", "tiramisu"].randomElement(using: &g)!)"
        case 10:
            return Int.random(in: 0..<6, using: &g) == 0
                ? "RM /orders" : "RM /orders/\(Int.random(in: 1...Int(revision) + 1, using: &g))"
        case 11: return "ADD \(menu) \(name)"
        case 12: return "RM \(menu)/\(name.lowercased())"
        case 13: return "ADD \(node) \(name)"
        case 14: return "RM \(node)/\(name.lowercased())"
        case 15:
            switch Int.random(in: 0..<4, using: &g) {
            case 0: return "ADD /settings/my-int \(price)"
            case 1: return "RM /settings/my-int/\(price)"
            default: return "SELECT /settings/my-int #\(Int.random(in: 1...4, using: &g))"
            }
        default: return Int.random(in: 0..<4, using: &g) == 0 ? "BANDS Low \(price) High" : "SET \(menu) title=\(name)"
        }
    }

    /// Fixed seeds, or `TABULA_SEEDS=first-last` (`Scripts/bench --soak`).
    static let seeds: [Int] = {
        let given =
            ProcessInfo.processInfo.environment["TABULA_SEEDS"]?.split(separator: "-").compactMap { Int($0) } ?? []
        return given.count == 2 && given[0] <= given[1] ? Array(given[0]...given[1]) : [1, 2, 3, 4]
    }()

    @Test(arguments: seeds)
    func aReplicaKeptFromEventsAloneEqualsTheListAfterEveryWrite(_ seed: Int) {
        var model = SeedData.model(now: 1_700_000_000)
        var replicas = Self.lists.map { Self.replica(of: model, $0) }
        var g = SplitMix64(seed: UInt64(seed)), rng = SplitMix64(seed: 9)
        var admin = Viewer()
        var applied = 0, snapshots = 0, bands = 0, settingChanges = 0
        for step in 0..<800 {
            let line = Self.write(model, &g)
            guard case .success(let r)? = RequestParser.parse(Array(line.utf8)) else { continue }
            guard let e = model.apply(r.command, viewer: &admin, now: 1_700_000_000, rng: &rng).event else { continue }
            if e.kind == "bands" { bands += 1 }
            if e.path == "/settings/my-int" { settingChanges += 1 }
            for i in replicas.indices {
                switch replicas[i].apply(e) {
                case .needsSnapshot:
                    replicas[i] = Self.replica(of: model, Self.lists[i])
                    snapshots += 1
                case .changed: applied += 1
                case .unchanged, .gone: break
                }
                let want = Self.listed(model, Self.lists[i])
                if replicas[i].rows != want {
                    Issue.record(
                        "seed \(seed), step \(step), after \(line): \(Self.lists[i]) replica\n\(replicas[i].rows)\nLS\n\(want)"
                    )
                    return
                }
            }
        }
        #expect(applied > 300, "events applied: \(applied)")
        #expect(
            snapshots == bands + settingChanges,
            "only a BANDS, and a change of the setting whose options are copied, send a replica back to a snapshot: \(snapshots) snapshots, \(bands) BANDS, \(settingChanges) changes of my-int"
        )
    }
}
