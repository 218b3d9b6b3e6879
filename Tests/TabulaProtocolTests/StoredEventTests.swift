import Testing

@testable import TabulaProtocol

/// An event written to a store (`storedPayload`) reads back the same (`init(storedPayload:)`),
/// its `prev` kept as stored text found by a scan that builds nothing (`JSONScan`), over
/// generated values whose strings hold quotes, backslashes, braces and commas.
@Suite struct StoredEventTests {
    static let tricky = [#"a"b"#, #"back\slash"#, "{not}", "[a,b]", "comma, here", "é ☕", #"\"}"#, ""]

    static func value(_ g: inout SplitMix64, depth: Int = 0) -> JSONValue {
        switch g.next() % (depth > 2 ? 4 : 6) {
        case 0: return .null
        case 1: return .int(Int64(bitPattern: g.next() % 2_000) - 1_000)
        case 2: return .bool(g.next() % 2 == 0)
        case 3: return .string(tricky[Int(g.next() % UInt64(tricky.count))])
        case 4: return .array((0..<Int(g.next() % 4)).map { _ in value(&g, depth: depth + 1) })
        default:
            return .object((0..<Int(g.next() % 4)).map { k in ("k\(k)", value(&g, depth: depth + 1)) })
        }
    }

    @Test func anEventReadBackFromItsStoredPayloadIsTheEventWritten() {
        var g = SplitMix64(seed: 58)
        for round in 0..<3_000 {
            var e = Event(rev: 7, kind: "set", path: "/items/1", summary: "s", value: Self.value(&g))
            e.prev = Self.value(&g)
            let section = { (g: inout SplitMix64) -> String? in
                g.next() % 3 == 0 ? nil : Self.tricky[Int(g.next() % UInt64(Self.tricky.count))]
            }
            if g.next() % 2 == 0 {
                e.at = Placement(section: section(&g), position: g.next() % 4 == 0 ? nil : Int(g.next() % 5_000) + 1)
            }
            if g.next() % 3 == 0 { e.from = Placement(section: section(&g), position: 1) }
            if g.next() % 4 == 0 { e.parent = Self.value(&g) }
            if e.hasContext && g.next() % 3 == 0 {  // positions in views, named by grants with odd bytes
                e.inViews = ViewPlacements(
                    (0..<Int(1 + g.next() % 3)).map { k in
                        ViewPlacements.Entry(
                            view: "deny=/items/\(k) " + Self.tricky[Int(g.next() % UInt64(Self.tricky.count))],
                            at: g.next() % 3 == 0 ? nil : Int(g.next() % 100) + 1,
                            from: g.next() % 3 == 0 ? nil : Int(g.next() % 100) + 1)
                    })
            }
            if e.hasContext && g.next() % 3 == 0 {
                // Small places, and some past what the scan reads in place (9 digits): those
                // go to the whole parse, which must read the same.
                let most: UInt64 = g.next() % 4 == 0 ? 3_000_000_000 : 50
                e.amongFavorites = FavoritePlaces(at: Int(g.next() % most), from: Int(g.next() % most))
            }
            let text = String(decoding: e.storedPayload, as: UTF8.self)
            let back = Event(rev: 7, kind: "set", path: "/items/1", summary: "s", storedPayload: text)
            #expect(back.value == e.value && back.at == e.at && back.from == e.from, "round \(round): \(text)")
            #expect(back.prev == e.prev && back.prev.isNull == e.prev.isNull, "round \(round): \(text)")
            #expect(back.parent?.resolved == e.parent?.resolved, "round \(round): \(text)")
            #expect(back.inViews == e.inViews && back.amongFavorites == e.amongFavorites, "round \(round): \(text)")
            #expect(back.storedPayload == e.storedPayload, "round \(round): written again the same")
        }
    }

    @Test func aValueEndsWhereItsTextSaysWhateverItsStringsHold() {
        let cases: [(String, Int?)] = [
            (#"{"a":"}"},"at":1"#, 9), (#""x\"y",1"#, 6), ("12,3", 2), ("null}", 4), (#"[1,[2,{}]],"#, 10),
            (#"{"a":"#, nil), (#""open"#, nil),
        ]
        for (text, end) in cases { #expect(JSONScan.valueEnd(Array(text.utf8), from: 0) == end, "\(text)") }
    }

    @Test func aContextWhoseFavouritesAreNotTwoNumbersIsReadWholeAndLosesNothingElse() {
        let payload = "{\"id\":1}\n" + #"{"prev":null,"at":{"section":"a","position":2},"favorites":[1,"x"]}"#
        let back = Event(rev: 7, kind: "fav", path: "/items/1", summary: "s", storedPayload: payload)
        #expect(back.at == Placement(section: "a", position: 2))
        #expect(back.amongFavorites == nil && back.prev.isNull)
    }
}
