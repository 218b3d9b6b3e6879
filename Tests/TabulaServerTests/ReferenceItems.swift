/// The item store as Protocol.md describes it, written as plainly as it can be: an array per
/// price section, linear scans, no code shared with TabulaModel or the encoders. The oracle
/// of `ReferenceModelTests`, and of the events each change makes (`events`: section 8's
/// fields, positions counted in the whole list) for `EventOracleTests`.
struct ReferenceItems {
    struct Item: Equatable, CustomStringConvertible {
        var id: Int
        var name: String
        var value: Int
        var favorite: Bool
        /// What the server gives a new item: learned from its event.
        var serial: RefValue = .unknown
        var created: RefValue = .unknown
        var description: String { "\(id) \(name) $\(value)\(favorite ? " ★" : "")" }
    }

    /// What a request comes to: taken, or refused with this code.
    enum Outcome: Equatable {
        case taken
        case refused(String)
    }

    /// The default bands: "Cheap Items" from $0, "Expensive Items" from $50.
    var bands: [(slug: String, lower: Int)] = [("cheap-items", 0), ("expensive-items", 50)]
    var sections: [[Item]] = [[], []]
    var nextID = 1
    var onlyFavorites = false
    /// The events of the changes made, in order (a change that changes nothing makes none).
    var events: [ReferenceEvent] = []

    /// The items the server starts with (as its first LS shows them), in order.
    init(seed: [(id: Int, name: String, value: Int, favorite: Bool)]) {
        for s in seed {
            sections[section(for: s.value)].append(Item(id: s.id, name: s.name, value: s.value, favorite: s.favorite))
            nextID = max(nextID, s.id + 1)
        }
    }

    /// The band a value falls in: the last whose lower bound it reaches.
    func section(for value: Int) -> Int {
        var found = 0
        for (i, b) in bands.enumerated() where value >= b.lower { found = i }
        return found
    }

    /// Where item `id` is: its section and index, if it exists.
    func find(_ id: Int) -> (Int, Int)? {
        for (s, items) in sections.enumerated() {
            for (i, item) in items.enumerated() where item.id == id { return (s, i) }
        }
        return nil
    }

    /// An item's row as `LS /items` shows it in JSON.
    func row(_ item: Item, in s: Int) -> RefValue {
        .object([
            ("type", .string("item")), ("id", .int(item.id)), ("name", .string(item.name)), ("value", .int(item.value)),
            ("serial", item.serial), ("created", item.created), ("favorite", .bool(item.favorite)),
            ("section", .string(bands[s].slug)),
        ])
    }

    /// Where the item at index `i` of section `s` stands: 1-based in the whole section.
    func place(_ s: Int, _ i: Int) -> RefValue { ReferenceEvent.place(i + 1, section: bands[s].slug) }

    /// Takes what the server chose for item `id` (its serial, its creation time).
    mutating func learn(_ id: Int, serial: RefValue, created: RefValue) {
        guard let (s, i) = find(id) else { return }
        sections[s][i].serial = serial
        sections[s][i].created = created
    }

    /// The event of a change of item `id` from `old` (at section `s`, index `i`) to what it is now.
    mutating func changed(_ kind: String, _ id: Int, was old: Item, at s: Int, _ i: Int, extra: Int? = nil) {
        guard let (t, j) = find(id) else { return }
        var value = row(sections[t][j], in: t)
        if let extra, case .object(var o) = value {
            o.append(("position", .int(extra)))
            value = .object(o)
        }
        events.append(
            ReferenceEvent(
                kind: kind, path: "/items/\(id)", value: value, prev: row(old, in: s), at: place(t, j),
                from: place(s, i)))
    }

    mutating func add(name: String, value: Int) -> Outcome {
        let s = section(for: value)
        sections[s].append(Item(id: nextID, name: name, value: value, favorite: false))
        events.append(
            ReferenceEvent(
                kind: "add", path: "/items/\(nextID)", value: row(sections[s].last!, in: s),
                at: place(s, sections[s].count - 1)))
        nextID += 1
        return .taken
    }

    /// A new value in another band moves the item to the end of that section.
    mutating func setValue(_ id: Int, _ value: Int) -> Outcome {
        guard let (s, i) = find(id) else { return .refused("NOTFOUND") }
        let old = sections[s][i]
        guard old.value != value else { return .taken }
        var item = old
        item.value = value
        let to = section(for: value)
        if to == s {
            sections[s][i] = item
        } else {
            sections[s].remove(at: i)
            sections[to].append(item)
        }
        changed("set", id, was: old, at: s, i)
        return .taken
    }

    mutating func setName(_ id: Int, _ name: String) -> Outcome {
        guard let (s, i) = find(id) else { return .refused("NOTFOUND") }
        let old = sections[s][i]
        guard old.name != name else { return .taken }
        sections[s][i].name = name
        changed("set", id, was: old, at: s, i)
        return .taken
    }

    /// `on`, `off`, or nil to toggle.
    mutating func fav(_ id: Int, _ on: Bool?) -> Outcome {
        guard let (s, i) = find(id) else { return .refused("NOTFOUND") }
        let old = sections[s][i]
        sections[s][i].favorite = on ?? !old.favorite
        if sections[s][i].favorite != old.favorite { changed("fav", id, was: old, at: s, i) }
        return .taken
    }

    mutating func remove(_ id: Int) -> Outcome {
        guard let (s, i) = find(id) else { return .refused("NOTFOUND") }
        let old = sections[s].remove(at: i)
        events.append(ReferenceEvent(kind: "rm", path: "/items/\(id)", prev: row(old, in: s), from: place(s, i)))
        return .taken
    }

    /// To 1-based `position` among the section as this connection sees it; the item lands
    /// where the item at that position stands (after it when moving down, before it when up).
    mutating func move(_ id: Int, to position: Int) -> Outcome {
        guard let (s, i) = find(id) else { return .refused("NOTFOUND") }
        let item = sections[s][i]
        if onlyFavorites && !item.favorite { return .refused("CONFLICT") }
        let seen = sections[s].filter { !onlyFavorites || $0.favorite }
        guard position >= 1, position <= seen.count else { return .refused("INVALID") }
        let target = seen[position - 1]
        guard target.id != id else { return .taken }
        let down = sections[s].firstIndex { $0.id == target.id }! > i
        sections[s].remove(at: i)
        let t = sections[s].firstIndex { $0.id == target.id }!
        sections[s].insert(item, at: down ? t + 1 : t)
        let now = sections[s].firstIndex { $0.id == id }!
        changed("mv", id, was: item, at: s, i, extra: now + 1)
        return .taken
    }

    mutating func filter(favorites: Bool) -> Outcome {
        onlyFavorites = favorites
        return .taken
    }

    /// What `LS /items` shows: per section its name and count, then its items.
    var listed: [String] {
        var out: [String] = []
        for (s, items) in sections.enumerated() {
            let shown = items.filter { !onlyFavorites || $0.favorite }
            out.append("== \(bands[s].slug) \(shown.count)")
            out += shown.map(\.description)
        }
        return out
    }
}
