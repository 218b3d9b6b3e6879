import Testing
import TabulaModel
import TabulaProtocol

/// Thousands of random commands from the protocol's grammar against one model: nothing may
/// trap, every change moves the revision by one, and the stores stay consistent.
@Suite struct RandomCommandsTests {
    static let paths = [
        "/", "/settings", "/settings/my-int", "/settings/my-int/16", "/settings/my-string", "/settings/mode",
        "/catalog", "/catalog/item-1",
        "/catalog/item-2/item-2.1", "/catalog/new", "/items", "/items/1", "/items/2", "/items/5", "/items/9",
        "/items/cheap-items",
        "/items/expensive-items", "/menu", "/menu/pizza", "/menu/pizza/margherita", "/menu/drinks", "/orders",
        "/orders/1", "..", ".", "nope",
    ]
    static let words = [
        "16", "#1", "#3", "#9", "0", "49", "50", "99", "-1", "$5", "on", "off", "x", "\"A B\"", "int", "text", "bool",
        "decimal", "tabs",
        "image", "name=Z", "value=70", "title=T", "favorites", "all", "margherita", "pesto", "Cheap", "30", "Pricey",
        "LIMIT", "AFTER", "3",
    ]
    static let verbs = [
        "LS", "SHOW", "CD", "PWD", "SELECT", "ADD", "SET", "RM", "MV", "FAV", "FILTER", "BANDS", "ORDER", "COMPLETE",
    ]

    /// Everything visible, as rows.
    static func fingerprint(_ m: Model) -> [String] {
        var v = Viewer()
        var out: [String] = []
        for p in [
            "/settings", "/settings/my-int", "/settings/my-string", "/settings/mode", "/catalog", "/catalog/item-1",
            "/catalog/item-2", "/items", "/menu", "/menu/pizza", "/menu/drinks", "/orders",
        ] {
            out += m.read(.ls(path: p, limit: 1000, after: nil), viewer: &v)?.rows.map(\.text) ?? []
        }
        out += m.read(.bands([]), viewer: &v)?.rows.map(\.text) ?? []
        return out
    }

    @Test func randomCommandsKeepTheModelConsistent() {
        var model = SeedData.model(now: 1_700_000_000)
        var viewer = Viewer()
        var rng = SplitMix64(seed: 2026)
        var pick = SplitMix64(seed: 11)
        for step in 0..<15_000 {
            var line = Self.verbs.randomElement(using: &pick) ?? "LS"
            let n = Int.random(in: 0...4, using: &pick)
            if n > 0 { line += " " + (Self.paths.randomElement(using: &pick) ?? "/") }
            for _ in 1..<max(1, n) { line += " " + (Self.words.randomElement(using: &pick) ?? "x") }
            guard case .success(let r)? = RequestParser.parse(Array(line.utf8)) else { continue }
            let before = model.revision
            let print = r.command.isWrite ? Self.fingerprint(model) : []
            let outcome = model.apply(r.command, viewer: &viewer, now: 1_700_000_000, rng: &rng)
            #expect(model.revision == before + (outcome.event == nil ? 0 : 1), "\(line)")
            if outcome.event != nil { #expect(outcome.reply.error == nil, "\(line)") }
            if r.command.isWrite && outcome.reply.error != nil {
                #expect(Self.fingerprint(model) == print, "a refused write changed the model: \(line)")
            }
            if step % 500 == 0 {
                let items = model.items
                let total = items.bands.indices.map { items.count(section: $0) }.reduce(0, +)
                #expect(total == items.count)
                #expect(
                    items.hasFavorites
                        == items.bands.indices.contains { items.count(section: $0, favoritesOnly: true) > 0 })
                var v = Viewer()
                #expect(model.read(.pwd, viewer: &v) != nil)
            }
        }
        #expect(model.revision > 100)
    }
}
