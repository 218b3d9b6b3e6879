import TabulaProtocol

/// Writes to `/items`: add, rename and reprice, remove, move within a section, favourite,
/// and new price bands.
extension ItemsList {
    public mutating func write(_ w: Write, at ref: Ref, viewer: Viewer, now: Double, rng: inout SplitMix64) throws
        -> Outcome?
    {
        switch (w, ref.kind) {
        case (.add(let args), 0), (.add(let args), ItemsList.section): return try add(args, now: now, rng: &rng)
        case (.set(let fields), ItemsList.item): return try set(ref.a, fields)
        case (.remove, ItemsList.item): return try remove(ref.a)
        case (.move(let position), ItemsList.item): return try move(ref.a, to: position, viewer: viewer)
        case (.favorite(let action), ItemsList.item): return try favorite(ref.a, action)
        case (.bands(let args), 0): return try setBands(args)
        default: return nil
        }
    }

    func changed(
        _ kind: Event.Kind, _ item: Item, message: String, summary: String? = nil, position: Int? = nil,
        mutations: [Mutation]
    ) -> Outcome {
        .changed(
            kind, path: ModelPath.numbered("/items", item.id), entry: ItemsList.entry(item.id),
            row: row(item, position: position), message: message, summary: summary, mutations: mutations)
    }

    /// Item `id`, as a change names it (`Outcome.entry`).
    static func entry(_ id: Int) -> (list: Int, ref: Ref) { (Model.itemsIndex, Ref(ItemsList.item, id)) }

    func sectionName(_ id: Int) -> String { items.bands[items.section(of: id)].slug }

    mutating func add(_ args: [String], now: Double, rng: inout SplitMix64) throws -> Outcome {
        let name: String, value: Int, serial: String
        if args.isEmpty {
            (name, value, serial) = RandomItem.make(using: &rng)
        } else {
            guard args.count == 2 else {
                throw TabulaError(
                    .syntax,
                    "ADD /items takes a name and a value (ADD /items \"Red Chair\" 42), or nothing for a random item")
            }
            name = try Title.checked(args[0], of: "an item")
            value = try Dollars.parse(args[1])
            serial = RandomItem.serial(using: &rng)
        }
        let item = items.add(name: name, value: value, serial: serial, created: now)
        return changed(
            .add, item, message: "/items/\(item.id) in \(sectionName(item.id))",
            mutations: record(ItemsCodec.put(item, counter: true)))
    }

    mutating func set(_ id: Int, _ fields: [FieldAssignment]) throws -> Outcome {
        var newName: String?
        var newValue: Int?
        for f in fields {
            switch f.field {
            case "name": newName = try Title.checked(f.value, of: "an item")
            case "value", "price": newValue = try Dollars.parse(f.value)
            default: throw TabulaError(.invalid, "/items/\(id) has no field '\(f.field)'; it has name and value")
            }
        }
        guard let before = items.item(id) else { throw TabulaError(.notFound, "no item \(id)") }
        if (newName ?? before.name) == before.name && (newValue ?? before.value) == before.value {
            return .unchanged("/items/\(id) in \(sectionName(id))", rows: [row(before)])
        }
        if let n = newName { _ = items.rename(id, to: n) }
        if let v = newValue { _ = items.reprice(id, to: v) }
        guard let item = items.item(id) else { throw TabulaError(.notFound, "no item \(id)") }
        return changed(
            .set, item, message: "/items/\(id) in \(sectionName(id))", mutations: record(ItemsCodec.put(item)))
    }

    mutating func remove(_ id: Int) throws -> Outcome {
        guard let gone = items.remove(id) else { throw TabulaError(.notFound, "no /items/\(id)") }
        return .removed(
            "/items/\(id)", entry: ItemsList.entry(id), title: gone.name,
            mutations: record([Mutation(ItemsCodec.table, .delete(.int(Int64(id))))]))
    }

    /// `MV`: `position` counts in the section as `viewer` sees it (its favourites only while
    /// it filters, and never what its grants hide), as seed 002 moves a row of its table; the
    /// item lands where the viewer's item at that position stands in the whole section. The
    /// reply names the viewer's position, the event the item's place in the whole section.
    mutating func move(_ id: Int, to position: Int, viewer: Viewer) throws -> Outcome {
        guard let before = items.item(id) else { throw TabulaError(.notFound, "no item \(id)") }
        let favs = viewer.filter == .favorites
        guard before.favorite || !favs else {
            throw TabulaError(
                .conflict,
                "item \(id) is not a favourite, so it is not shown while this connection shows favourites only; FILTER all to move it"
            )
        }
        let s = items.section(of: id)
        let view = SeenItems(items, viewer: viewer, favoritesOnly: favs)
        let n = view.count(s)
        let shown = favs ? "favourites shown" : "items"
        guard position <= n, let target = view.storePosition(ofShown: position - 1, in: s) else {
            throw TabulaError(
                .invalid,
                "position \(position) is past the end of \(items.bands[s].slug), which has \(n) \(n == 1 ? String(shown.dropLast()) : shown); items cannot leave the section of their price (change the value with SET to do that)"
            )
        }
        let slug = items.bands[s].slug
        guard items.position(of: id) != target else {
            return .unchanged("\(id) is now #\(position) in \(slug)", rows: [row(before, position: position)])
        }
        let moved = items.move(id, to: target)
        guard let item = items.item(id) else { throw TabulaError(.notFound, "no item \(id)") }
        let whole = row(item, position: target + 1)
        let event = Event(
            rev: 0, what: .mv, path: "/items/\(id)", summary: "#\(target + 1) in \(slug): " + whole.text,
            value: whole.json)
        return Outcome(
            Reply(rows: [row(item, position: position)], message: "\(id) is now #\(position) in \(slug)"), event: event,
            mutations: record(moved.flatMap { ItemsCodec.put($0) }), entry: ItemsList.entry(id))
    }

    mutating func favorite(_ id: Int, _ action: FavAction) throws -> Outcome {
        guard let item = items.item(id) else { throw TabulaError(.notFound, "no item \(id)") }
        let on = action == .toggle ? !item.favorite : action == .on
        let message = on ? "favourite" : "not a favourite"
        guard on != item.favorite else { return .unchanged(message, rows: [row(item)]) }
        guard let changed = items.setFavorite(id, on) else { throw TabulaError(.notFound, "no item \(id)") }
        return self.changed(.fav, changed, message: message, mutations: record(ItemsCodec.put(changed)))
    }

    mutating func setBands(_ args: [String]) throws -> Outcome {
        let bands = try Band.parse(args).get()
        let n = bands.count
        // The reply and the event count every item: BANDS is an admin's, and its event one
        // value for every watcher of /items (docs/security.md, on what a user may learn, says so).
        guard bands != items.bands else {
            return .unchanged("\(n) \(plural(n, "band"))", rows: bandsReply(Viewer()).rows)
        }
        items.setBands(bands)
        let rows = items.bands.indices.map { bandRow($0, count: items.count(section: $0)) }
        let summary = items.bands.indices.map { "\(items.bands[$0].title) (\(items.rangeText($0)))" }.joined(
            separator: ", ")
        let event = Event(rev: 0, what: .bands, path: "/items", summary: summary, value: .array(rows.map(\.json)))
        return Outcome(
            Reply(rows: rows, message: "\(n) \(plural(n, "band"))"), event: event,
            mutations: record([ItemsCodec.bands(bands)]))
    }
}
