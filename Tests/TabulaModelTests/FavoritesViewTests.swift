import Testing
import TabulaProtocol

@testable import TabulaModel

/// A copy of `/items` kept from the events a `FILTER favorites` watcher is sent
/// (`WatcherView`), by their kinds and positions alone, equals that watcher's own `LS /items`
/// after every change: random adds, price changes across sections, favourites set and
/// cleared, moves and removals, with and without grants that hide items. A failure names its
/// seed and step.
@Suite struct FavoritesViewTests {
    /// Item ids by section, as a client would keep them.
    struct Copy {
        var sections: [String: [Int]] = [:]

        mutating func apply(_ e: Event) -> String? {
            guard let id = Int(e.path.split(separator: "/").last ?? "") else { return nil }
            if let from = e.from {
                guard let s = from.section, let p = from.position, sections[s, default: []].indices.contains(p - 1),
                    sections[s]![p - 1] == id
                else { return "from \(String(describing: e.from)) is not where \(id) stood: \(sections)" }
                sections[s]!.remove(at: p - 1)
            } else if e.what != .add {
                return "a \(e.kind) without from: \(e)"
            }
            if let at = e.at {
                guard let s = at.section, let p = at.position, p >= 1, p <= sections[s, default: []].count + 1 else {
                    return "at \(String(describing: e.at)) is past the end: \(sections)"
                }
                sections[s, default: []].insert(id, at: p - 1)
            } else if e.what != .rm {
                return "a \(e.kind) without at: \(e)"
            }
            return nil
        }
    }

    static func listed(_ h: Harness) -> [String: [Int]] {
        var out: [String: [Int]] = [:]
        var section = ""
        for row in h.run("LS /items LIMIT 10000").reply.rows {
            let o = row.json.resolved
            if o["type"]?.stringValue == "section" {
                section = o["name"]?.stringValue ?? ""
                out[section] = []
            } else if let id = o["id"]?.intValue {
                out[section, default: []].append(Int(id))
            }
        }
        return out
    }

    @Test(arguments: [nil, Grants(deny: ["/items/2", "/items/9"])])
    func aFavouritesCopyKeptFromItsEventsIsItsOwnList(grants: Grants?) {
        for seed in UInt64(1)...40 {
            var g = SplitMix64(seed: seed)
            let h = Harness()
            h.model.eventViews = EventViews(grants.map { [$0] } ?? [])
            h.viewer.grants = grants
            h.viewer.filter = .favorites
            let watcher = WatcherView(h.viewer)
            var copy = Copy(sections: Self.listed(h))
            let admin = Viewer()
            for step in 0..<60 {
                let id = 1 + Int(g.next() % 12)
                let line = [
                    "ADD /items \"thing \(step)\" \(1 + g.next() % 99)", "SET /items/\(id) value=\(1 + g.next() % 99)",
                    "FAV /items/\(id)", "FAV /items/\(id) off", "MV /items/\(id) \(1 + g.next() % 4)",
                    "RM /items/\(id)",
                ][Int(g.next() % 6)]
                let seer = h.viewer
                h.viewer = admin
                let o = h.run(line)
                h.viewer = seer
                if let e = o.event, watcher.receives(e), let fault = copy.apply(watcher.view(e)) {
                    Issue.record("seed \(seed) step \(step) \(line): \(fault)")
                    break
                }
                let want = Self.listed(h)
                guard copy.sections.filter({ !$0.value.isEmpty }) == want.filter({ !$0.value.isEmpty }) else {
                    Issue.record("seed \(seed) step \(step) \(line): copy \(copy.sections), LS \(want)")
                    break
                }
            }
        }
    }
}

/// The favourites' places are for items alone, and an item's event without them (stored by a
/// server of protocol version 1) tells a favourites watcher no position at all.
@Suite struct FavoritesPlacesTests {
    @Test func anEventOfAnotherListCarriesNoFavouritesView() {
        let h = Harness()
        h.model.eventViews = EventViews([Grants(deny: ["/catalog/item-1/item-1.1", "/items/3"])])
        for line in ["SET /catalog/item-1 title=One", "ORDER margherita", "SELECT /settings/my-int #1"] {
            guard let e = h.run(line).event else {
                Issue.record("\(line) made no event")
                continue
            }
            let names = e.inViews?.entries.map(\.view) ?? []
            #expect(!names.contains { $0.hasSuffix("FILTER favorites") }, "\(line): \(names)")
            #expect(e.amongFavorites == nil, "\(line)")
        }
    }

    @Test func anItemsEventWithoutFavouritesPlacesTellsAFavouritesWatcherNoPosition() {
        let h = Harness()
        guard var e = h.run("FAV /items/1").event else {
            Issue.record("no event")
            return
        }
        e.amongFavorites = nil  // as a version-1 server stored it
        let told = WatcherView(grants: nil, favoritesOnly: true).view(e)
        #expect(told.at?.position == nil && told.from?.position == nil, "\(told)")
        #expect(WatcherView(grants: nil, favoritesOnly: false).view(e).at?.position != nil)
    }
}
