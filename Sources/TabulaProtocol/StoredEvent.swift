import Glibc

/// How the stores keep an event's value and context in one text column: the value's JSON,
/// then, when the event has context (`Event.hasContext`), a line break and
/// `{"prev":…,"at":…,"from":…,"parent":…,"views":…,"favorites":[A,B]}` (`views`:
/// `Event.inViews`; `favorites`: `Event.amongFavorites`). Compact JSON holds no raw line break, so the
/// first one divides the two, and a payload without one (written before events had context)
/// is the value alone.
extension Event {
    /// The payload column's bytes.
    public var storedPayload: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512)  // an item's value and its row before, with room: no regrowth
        value.write(to: &out)
        guard hasContext else { return out }
        out.append(10)
        out.append(contentsOf: #"{"prev":"#.utf8)
        prev.write(to: &out)
        WireEncoder.appendContext(self, to: &out)
        if let views = inViews {
            out.append(contentsOf: #","views":"#.utf8)
            views.writeJSON(to: &out)
        }
        if let f = amongFavorites {
            out.append(contentsOf: #","favorites":["#.utf8)
            WireEncoder.appendDecimal(UInt64(max(0, f.at)), to: &out)
            out.append(UInt8(ascii: ","))
            WireEncoder.appendDecimal(UInt64(max(0, f.from)), to: &out)
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The event a store's row holds: its columns, the payload as `storedPayload` wrote it.
    /// The value and `prev` (the entry's row before, as large as the value) are parsed only
    /// when read (`StoredJSON`): `prev`'s extent is found by a scan that builds nothing, so a
    /// replay that nobody reads, or whose watchers take the text as it is, parses neither.
    /// `parent` stays text too; `at`, `from` and the favourites' places, small, are read at
    /// once, and the views' places parsed.
    public init(rev: UInt64, kind: String, path: String, summary: String, storedPayload text: String) {
        var text = text
        let parts = text.withUTF8 { Event.storedParts($0) }
        guard let parts else {
            self.init(rev: rev, kind: kind, path: path, summary: summary, value: .deferred(StoredJSON(text)))
            return
        }
        self.init(rev: rev, kind: kind, path: path, summary: summary, value: .deferred(StoredJSON(parts.value)))
        switch parts.context {
        case .scanned(let p, let at, let from, let parent, let views, let favorites):
            prev = p == "null" ? .null : .deferred(StoredJSON(p))
            self.at = at
            self.from = from
            self.parent = parent.map { .deferred(StoredJSON($0)) }
            inViews = views.flatMap { ViewPlacements(json: JSONParser.parse($0)) }
            amongFavorites = favorites
        case .text(let t):  // not as `storedPayload` writes it: parsed whole
            let parsed = JSONParser.parse(t)
            at = Placement(json: parsed?["at"])
            from = Placement(json: parsed?["from"])
            prev = parsed?["prev"] ?? .null
            parent = parsed?["parent"]
            inViews = ViewPlacements(json: parsed?["views"])
            amongFavorites = FavoritePlaces(json: parsed?["favorites"])
        }
    }

    /// A stored context: scanned (prev's, parent's and the views' text, kept as text; the
    /// placements and the favourites' places read), or its text when it is not as
    /// `storedPayload` writes it.
    enum StoredContext {
        case scanned(
            prev: String, at: Placement?, from: Placement?, parent: String?, views: String?,
            favorites: FavoritePlaces?)
        case text(String)
    }

    /// A stored payload's parts: the value's text and its context; nil when the payload has
    /// no context. The context `{"prev":P[,"at":A][,"from":F][,"parent":Q][,"views":V]
    /// [,"favorites":[AT,FROM]]}` is scanned, not parsed: P and Q stay text (parsed when read),
    /// A, F and the favourites' two numbers are small and read here, and V is kept as text for
    /// its reader.
    static func storedParts(_ b: UnsafeBufferPointer<UInt8>) -> (value: String, context: StoredContext)? {
        guard let cut = b.firstIndex(of: 10) else { return nil }
        func text(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: b[r]), as: UTF8.self) }
        let value = text(0..<cut)
        let whole = StoredContext.text(text((cut + 1)..<b.count))
        guard let prev = field(b, #"{"prev":"#, at: cut + 1) else { return (value, whole) }
        var i = prev.upperBound
        var placements: [Placement?] = [nil, nil]
        for (k, key): (Int, StaticString) in [(0, #","at":"#), (1, #","from":"#)] {
            guard let r = field(b, key, at: i) else { continue }
            guard let p = Placement(scanning: UnsafeBufferPointer(rebasing: b[r])) else { return (value, whole) }
            placements[k] = p
            i = r.upperBound
        }
        let parent = field(b, #","parent":"#, at: i)
        i = parent?.upperBound ?? i
        let views = field(b, #","views":"#, at: i)
        i = views?.upperBound ?? i
        let favorites = field(b, #","favorites":"#, at: i)
        i = favorites?.upperBound ?? i
        let favoritePlaces = favorites.map { FavoritePlaces(scanning: UnsafeBufferPointer(rebasing: b[$0])) }
        if case .some(nil) = favoritePlaces { return (value, whole) }
        guard i == b.count - 1, b[i] == UInt8(ascii: "}") else { return (value, whole) }
        return (
            value,
            .scanned(
                prev: text(prev), at: placements[0], from: placements[1], parent: parent.map(text),
                views: views.map(text), favorites: favoritePlaces ?? nil)
        )
    }

    /// The extent of the value after `key` (which names it, with its colon) at `i`, or nil.
    private static func field(_ b: UnsafeBufferPointer<UInt8>, _ key: StaticString, at i: Int) -> Range<Int>? {
        guard b.begins(with: key, at: i), let end = JSONScan.valueEnd(b, from: i + key.utf8CodeUnitCount) else {
            return nil
        }
        return (i + key.utf8CodeUnitCount)..<end
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether the bytes at `i` are `literal`'s (compared as memory, not element by element).
    func begins(with literal: StaticString, at i: Int) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard i >= 0, i + n <= count, let base = baseAddress else { return n == 0 }
        return memcmp(base + i, literal.utf8Start, n) == 0
    }
}

extension FavoritePlaces {
    /// `[AT,FROM]` as `storedPayload` writes it (two decimals), read without building JSON;
    /// nil for anything else.
    init?(scanning b: UnsafeBufferPointer<UInt8>) {
        var i = 0
        func number() -> Int? {
            let start = i
            var n = 0
            while i < b.count, b[i] >= 48, b[i] <= 57, i - start < 9 {
                n = n * 10 + Int(b[i] - 48)
                i += 1
            }
            return i > start ? n : nil
        }
        guard b.begins(with: "[", at: 0) else { return nil }
        i = 1
        guard let at = number(), b.begins(with: ",", at: i) else { return nil }
        i += 1
        guard let from = number(), b.begins(with: "]", at: i), i + 1 == b.count else { return nil }
        self.init(at: at, from: from)
    }
}

extension Placement {
    /// The placement `{"section":"S","position":N}` (either field may be absent) as
    /// `writeJSON` writes it, read without building JSON; nil for anything else (a section
    /// with an escape included: the caller then parses).
    init?(scanning b: UnsafeBufferPointer<UInt8>) {
        var i = 0
        func take(_ s: StaticString) -> Bool {
            guard b.begins(with: s, at: i) else { return false }
            i += s.utf8CodeUnitCount
            return true
        }
        guard take("{") else { return nil }
        var section: String?
        var position: Int?
        if take(#""section":""#) {
            let start = i
            while i < b.count && b[i] != UInt8(ascii: "\"") {
                if b[i] == UInt8(ascii: "\\") { return nil }
                i += 1
            }
            guard i < b.count else { return nil }
            section = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
            i += 1
            if take("}") {
                guard i == b.count else { return nil }
                self.init(section: section, position: nil)
                return
            }
            guard take(",") else { return nil }
        }
        if take(#""position":"#) {
            var n = 0
            let start = i
            while i < b.count, b[i] >= 48, b[i] <= 57, i - start < 18 {
                n = n * 10 + Int(b[i] - 48)
                i += 1
            }
            guard i > start else { return nil }
            position = n
        }
        guard take("}"), i == b.count else { return nil }
        self.init(section: section, position: position)
    }
}

/// Finds where a JSON value ends in compact JSON text without building it: strings (their
/// escapes skipped), objects and arrays (nesting counted), and scalars. Pure.
enum JSONScan {
    /// The index just past the value starting at `i`, or nil when the text ends first.
    static func valueEnd<B: RandomAccessCollection>(_ b: B, from i: Int) -> Int?
    where B.Element == UInt8, B.Index == Int {
        var i = i
        var depth = 0
        while i < b.count {
            switch b[i] {
            case UInt8(ascii: "\""):
                i += 1
                while i < b.count && b[i] != UInt8(ascii: "\"") { i += b[i] == UInt8(ascii: "\\") ? 2 : 1 }
                guard i < b.count else { return nil }
                i += 1
                if depth == 0 { return i }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                i += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return i }  // the end of what holds a scalar
                depth -= 1
                i += 1
                if depth == 0 { return i }
            case UInt8(ascii: ","):
                if depth == 0 { return i }
                i += 1
            default: i += 1
            }
        }
        return depth == 0 ? i : nil
    }
}
