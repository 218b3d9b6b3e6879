import Foundation
import Testing
import TabulaClient
import TabulaProtocol
import TabulaServer
import TabulaTestSupport

/// What each event carries, held to the reference models (`ReferenceItems`,
/// `ReferenceSettingsAndOrders`, `ReferenceTree`), which share no code with the server:
/// random changes of every list are sent by one client, and a watcher of everything in JSON
/// (on the other node, on a cluster) must be pushed exactly the events the reference predicts
/// for each, in order and with no revision skipped: `kind`, `path`, `value`, `prev`, `at`,
/// `from` and `parent`, field by field. What only the server decides (an item's serial, a
/// creation time) is taken from the first event that shows it and held to it after. A
/// failure names its seed, its store and the requests so far.
@Suite struct EventOracleTests {
    static func stores() -> [String] { testPostgres == nil ? ["memory", "sqlite"] : ["memory", "sqlite", "cluster"] }

    /// A writer and a watcher of `/` in JSON, on one server of `kind` or, for `cluster`, on
    /// two nodes of one database; after `body`, a new connection to the writer's server
    /// replays every revision from the watcher's first, which must be what it was pushed live.
    static func withPair(_ kind: String, _ body: (TabulaConnection, Watcher) throws -> Void) throws {
        func run(_ writer: Server, _ watching: Server) throws {
            let watcher = try Watcher(try connect(watching))
            try body(try connect(writer), watcher)
            let again = try connect(writer)
            _ = try again.request("FORMAT json")
            #expect(try again.request("WATCH / FROM \(watcher.first)").isOK)
            let replayed = try GrantedEventTests.lines(again).compactMap(ReferenceEvent.pushed).map(\.event)
            #expect(replayed == watcher.seen, "on \(kind), a replay from \(watcher.first) differs from the live events")
        }
        if kind == "cluster" {
            try withCluster { nodes, _ in try run(nodes[0], nodes[1]) }
        } else {
            try withServer(store: try makeStore(kind)) { s in try run(s, s) }
        }
    }

    /// A connection that watches everything in JSON and takes the events of each step.
    final class Watcher {
        let c: TabulaConnection
        /// The last revision it was pushed.
        private(set) var rev = 0
        /// The revision its watch began at.
        private(set) var first = 0
        /// Every event it was pushed, in order.
        private(set) var seen: [ReferenceEvent] = []

        init(_ c: TabulaConnection) throws {
            self.c = c
            _ = try c.request("FORMAT json")
            let r = try c.request("WATCH /")
            rev = Int(r.reply.message.split(separator: " ").last ?? "") ?? 0
            first = rev
        }

        /// The events pushed after the last step's, through `want.count` more revisions
        /// (`SYNC` waits for them), held to `want`: a message naming the first difference, or nil.
        func check(_ want: [ReferenceEvent]) throws -> (String?, [ReferenceEvent]) {
            let through = rev + want.count
            let synced = try c.request("SYNC \(through) TIMEOUT 5000")
            let got = c.takePushes().compactMap(ReferenceEvent.pushed)
            defer {
                rev = got.last?.rev ?? rev
                seen += got.map(\.event)
            }
            guard synced.isOK else { return ("SYNC \(through): \(synced.final); pushed \(got)", []) }
            guard got.count == want.count else { return ("pushed \(got.map(\.event)), the reference says \(want)", []) }
            for (k, (g, w)) in zip(got, want).enumerated() {
                if g.rev != rev + k + 1 { return ("pushed rev \(g.rev) where \(rev + k + 1) comes next", []) }
                if !w.matches(g.event) { return ("pushed \(g.event), the reference says \(w)", []) }
            }
            return (nil, got.map(\.event))
        }
    }

    /// Sends `line`, holds its outcome to `want`, and the events pushed to those the reference
    /// predicted (`predicted`); returns the events pushed.
    static func step(
        _ line: String, _ want: ReferenceItems.Outcome, _ predicted: [ReferenceEvent], writer: TabulaConnection,
        watcher: Watcher, context: @autoclosure () -> String
    ) throws -> [ReferenceEvent] {
        let r = try writer.request(line)
        let got: ReferenceItems.Outcome = r.isOK ? .taken : .refused(r.reply.error?.code.rawValue ?? "?")
        try #require(got == want, "\(context()): \(line) was \(r.final), the reference says \(want)")
        let (why, events) = try watcher.check(predicted)
        try #require(why == nil, "\(context()): after \(line) the watcher was \(why ?? "")")
        return events
    }

    /// 120 random changes drawn by `next` from `ref`, each sent by `writer` and its events held
    /// to `ref`'s prediction (`step`); `ref` learns from what was pushed, whose kinds are
    /// counted into `kinds` (`KIND with parent` for those that name one).
    static func drive<R: PredictsEvents>(
        _ ref: inout R, seed: UInt64, on kind: String, writer: TabulaConnection, watcher: Watcher,
        kinds: inout [String: Int], next: (inout R, inout SplitMix64, Int) -> (String, ReferenceItems.Outcome)
    ) throws {
        var g = SplitMix64(seed: seed)
        var sent: [String] = []
        for made in 0..<120 {
            let (line, want) = next(&ref, &g, made)
            sent.append(line)
            let predicted = ref.events
            ref.events = []
            let pushed = try Self.step(
                line, want, predicted, writer: writer, watcher: watcher,
                context: "seed \(seed) on \(kind) after \(sent.suffix(6))")
            for e in pushed {
                kinds[e.kind + (e.parent == nil ? "" : " with parent"), default: 0] += 1
                ref.learn(from: e)
            }
        }
    }

    @Test(arguments: stores())
    func everyItemChangesEventCarriesWhatTheReferencePredicts(store kind: String) throws {
        var kinds: [String: Int] = [:]
        for seed in UInt64(1)...(kind == "cluster" ? 2 : 4) {
            try Self.withPair(kind) { writer, watcher in
                _ = try writer.request("FORMAT json")
                let first = try writer.request("LS /items LIMIT 10000").reply.rows.map { RefValue($0.json) }.filter {
                    $0["type"] == .string("item")
                }
                var ref = ReferenceItems(
                    seed: first.map {
                        guard case .int(let id) = $0["id"], case .string(let n) = $0["name"],
                            case .int(let v) = $0["value"]
                        else { return (0, "", 0, false) }
                        return (id, n, v, $0["favorite"] == .bool(true))
                    })
                for row in first {
                    if case .int(let id) = row["id"] { ref.learn(id, serial: row["serial"]!, created: row["created"]!) }
                }
                try Self.drive(&ref, seed: seed, on: kind, writer: writer, watcher: watcher, kinds: &kinds) {
                    ref, g, _ in ReferenceModelTests.step(&ref, &g)
                }
            }
        }
        #expect(["add", "set", "fav", "mv", "rm"].allSatisfy { kinds[$0, default: 0] > 3 }, "drawn: \(kinds)")
    }

    @Test(arguments: stores())
    func everySettingAndOrderChangesEventCarriesWhatTheReferencePredicts(store kind: String) throws {
        var kinds: [String: Int] = [:]
        for seed in UInt64(1)...(kind == "cluster" ? 2 : 4) {
            try Self.withPair(kind) { writer, watcher in
                _ = try writer.request("FORMAT json")
                let settings = try writer.request("LS /settings").reply.rows.map { RefValue($0.json) }.map { row in
                    guard case .array(let options) = row["options"], case .int(let selected) = row["selected"],
                        case .string(let name) = row["name"], case .string(let title) = row["title"],
                        case .string(let type) = row["type"]
                    else { return ReferenceSettingsAndOrders.Setting(name: "?", options: [], selected: 0) }
                    let texts = options.map { o -> String in
                        if case .int(let i) = o { return "\(i)" }
                        if case .string(let s) = o { return s }
                        return "?"
                    }
                    return .init(name: name, options: texts, selected: selected, title: title, type: type)
                }
                var ref = ReferenceSettingsAndOrders(settings: settings, dishes: try ReferenceModelTests.dishes(writer))
                try Self.drive(&ref, seed: seed, on: kind, writer: writer, watcher: watcher, kinds: &kinds) {
                    ref, g, _ in ReferenceModelTests.settingsStep(&ref, &g)
                }
            }
        }
        #expect(["select", "order", "rm", "clear"].allSatisfy { kinds[$0, default: 0] > 3 }, "drawn: \(kinds)")
    }

    /// The catalog and the menu as the server lists them, every branch and section walked.
    static func seededTree(_ c: TabulaConnection) throws -> ReferenceTree {
        var tree = ReferenceTree()
        var lists = ["/catalog", "/menu"]
        while let list = lists.popLast() {
            for row in try c.request("LS \(list) LIMIT 10000").reply.rows.map({ RefValue($0.json) }) {
                guard case .string(let name) = row["name"] else { continue }
                tree.seed(list + "/" + name, row: row)
                if tree.countKey(list + "/" + name) != nil { lists.insert(list + "/" + name, at: 0) }
            }
        }
        return tree
    }

    /// One random ADD, SET title or RM in the catalog or the menu, and what the reference makes of it.
    static func treeStep(_ ref: inout ReferenceTree, _ g: inout SplitMix64, made: Int) -> (
        String, ReferenceItems.Outcome
    ) {
        let paths = ref.paths
        let any = (paths + ["/catalog/nothing", "/menu/nothing"])[Int(g.next() % UInt64(paths.count + 2))]
        switch g.next() % 6 {
        case 0, 1, 2:
            let parents = ["/catalog", "/menu"] + paths + ["/catalog/nothing"]
            let parent = parents[Int(g.next() % UInt64(parents.count))]
            let text = parent.hasPrefix("/catalog") && g.next() % 2 == 0 ? "t\(made)" : nil
            return (
                "ADD \(parent) n\(made)" + (text.map { " text \($0)" } ?? ""),
                ref.add(under: parent, name: "n\(made)", text: text)
            )
        case 3, 4:
            let title = "t\(g.next() % 4)"
            return ("SET \(any) title=\(title)", ref.setTitle(any, title))
        default: return ("RM \(any)", ref.remove(any))
        }
    }

    @Test(arguments: stores())
    func everyCatalogAndMenuChangesEventCarriesWhatTheReferencePredicts(store kind: String) throws {
        var kinds: [String: Int] = [:]
        for seed in UInt64(1)...(kind == "cluster" ? 2 : 4) {
            try Self.withPair(kind) { writer, watcher in
                _ = try writer.request("FORMAT json")
                var ref = try Self.seededTree(writer)
                try Self.drive(&ref, seed: seed, on: kind, writer: writer, watcher: watcher, kinds: &kinds) {
                    ref, g, made in Self.treeStep(&ref, &g, made: made)
                }
                let listed = try Self.seededTree(writer).listed
                #expect(
                    listed == ref.listed,
                    "seed \(seed) on \(kind): the server lists \(listed), the reference \(ref.listed)")
            }
        }
        let drawn = ["add", "add with parent", "set", "rm", "rm with parent"]
        #expect(drawn.allSatisfy { kinds[$0, default: 0] > 3 }, "drawn: \(kinds)")
    }
}
