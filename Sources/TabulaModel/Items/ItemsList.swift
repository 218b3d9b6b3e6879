import TabulaProtocol

/// `/items` (seed 002): one store of items shown in sections by price band, with favourites
/// and a per-connection favourites filter.
public struct ItemsList: ListStore {
    public static let name = "items"
    /// Places: the list, a price section (`a`: its index), an item (`a`: its id).
    static let section: UInt8 = 1, item: UInt8 = 2

    /// The items.
    public internal(set) var items = ItemStore()

    public init() {}

    public var recordsMutations = true

    public func summary(seenBy viewer: Viewer) -> Row {
        let n = viewer.isRestricted ? SeenItems(items, viewer: viewer, favoritesOnly: false).total : items.count
        return Row(
            text: "items/  \(n) \(plural(n, "item")) in \(items.bands.count) \(plural(items.bands.count, "section"))",
            json: .object([("name", .string("items")), ("count", .int(Int64(n)))]), path: RowPath("/", "items"))
    }

    /// Whether `viewer` sees a favourite (so is offered the favourites filter): a hidden
    /// favourite does not count. O(bands · grants) for a viewer with grants.
    public func hasFavorites(seenBy viewer: Viewer) -> Bool {
        guard items.hasFavorites else { return false }
        guard viewer.isRestricted else { return true }
        let favs = SeenItems(items, viewer: viewer, favoritesOnly: true)
        return items.bands.indices.contains { favs.count($0) > 0 }
    }

    public func isList(_ ref: Ref) -> Bool { ref.kind != ItemsList.item }

    /// An item's id (`/items/17`), as `ChangeRevisions.number(_:root:)` reads one from a path.
    public func number(of ref: Ref) -> Int? { ref.kind == ItemsList.item ? ChangeRevisions.keptNumber(ref.a) : nil }

    public func child(of ref: Ref, named name: String) -> Ref? {
        switch ref.kind {
        case 0:
            if let id = Int(name), items.item(id) != nil { return Ref(ItemsList.item, id) }
            let lower = folded(name)
            return items.bands.firstIndex { $0.slug == lower }.map { Ref(ItemsList.section, $0) }
        case ItemsList.section:
            if let id = Int(name), items.item(id) != nil, items.section(of: id) == ref.a {
                return Ref(ItemsList.item, id)
            }
            return nil
        default: return nil
        }
    }

    public func path(of ref: Ref) -> String {
        switch ref.kind {
        case 0: return "/items"
        case ItemsList.section: return "/items/\(items.bands[ref.a].slug)"
        default: return ModelPath.numbered("/items", ref.a)
        }
    }

    public func childNames(of ref: Ref, limit: Int) -> [(name: String, isList: Bool)] {
        switch ref.kind {
        case 0:
            var out = items.bands.prefix(limit).map { ($0.slug, true) }
            for s in items.bands.indices where out.count < limit {
                out += items.page(section: s, from: 0, limit: limit - out.count, favoritesOnly: false).map {
                    (String($0.id), false)
                }
            }
            return out
        case ItemsList.section:
            return items.page(section: ref.a, from: 0, limit: limit, favoritesOnly: false).map {
                (String($0.id), false)
            }
        default: return []
        }
    }

    func row(_ item: Item, position: Int? = nil) -> Row {
        let r = items.itemRow(item, position: position)
        return Row(line: LineText(writtenBy: r), json: .deferred(r), path: RowPath("/items", number: item.id))
    }

    /// Band `s` with `n` items in it (as the viewer asking sees them).
    func bandRow(_ s: Int, count n: Int) -> Row {
        let b = items.bands[s]
        return Row(
            text: "\(b.slug)/  \(b.title)  \(items.rangeText(s))  (\(n) \(plural(n, "item")))",
            json: .object([
                ("type", .string("band")), ("name", .string(b.slug)), ("title", .string(b.title)),
                ("lower", .int(Int64(b.lower))), ("count", .int(Int64(n))),
            ]), path: RowPath("/items", b.slug))
    }

    func sectionHeader(_ s: Int, count n: Int, favoritesOnly: Bool) -> Row {
        let b = items.bands[s]
        return Row(
            text:
                "\(RowMarks.sectionHeader)\(b.title) (\(items.rangeText(s))): \(n) \(plural(n, favoritesOnly ? "favourite" : "item"))",
            json: .object([
                ("type", .string("section")), ("name", .string(b.slug)), ("title", .string(b.title)),
                ("range", .string(items.rangeText(s))), ("count", .int(Int64(n))),
            ]))
    }

    static let noItems = Row(
        text: RowMarks.emptySection,
        json: .object([("type", .string("empty")), ("text", .string(RowMarks.emptySection))]))

    /// `BANDS` without arguments.
    /// `BANDS` without arguments, its counts as `viewer` sees them.
    public func bandsReply(_ viewer: Viewer) -> Reply {
        let shown = SeenItems(items, viewer: viewer, favoritesOnly: false)
        return Reply(
            rows: items.bands.indices.map { bandRow($0, count: shown.count($0)) },
            message: "\(items.bands.count) \(plural(items.bands.count, "band"))")
    }

    public func list(_ ref: Ref, limit: Int, after: String?, viewer: Viewer) throws -> Reply {
        guard ref.kind != ItemsList.item else { return try show(ref, viewer: viewer) }
        let favs = viewer.filter == .favorites
        let shown = SeenItems(items, viewer: viewer, favoritesOnly: favs)
        let sections = ref.kind == ItemsList.section ? [ref.a] : Array(items.bands.indices)
        var startSection = sections[0]
        var startPos = 0
        if let a = after {
            guard let id = Int(a), shown.isShown(id, in: sections) else {
                throw TabulaError(.notFound, "AFTER \(a): no item \(a) in \(path(of: ref))")
            }
            startSection = items.section(of: id)
            startPos = shown.position(after: id)
        }
        var rows: [Row] = []
        var count = 0
        var lastId: Int?
        var more = false
        for s in sections where s >= startSection {
            let from = s == startSection ? startPos : 0
            let total = shown.count(s)
            if count >= limit {
                more = true
                break
            }
            if from == 0 { rows.append(sectionHeader(s, count: total, favoritesOnly: favs)) }
            if total == 0 {
                rows.append(ItemsList.noItems)
                continue
            }
            let page = shown.page(s, from: from, limit: limit - count)
            rows += page.map { row($0) }
            count += page.count
            lastId = page.last?.id ?? lastId
            if from + page.count < total {
                more = true
                break
            }
        }
        var message = "\(count) \(plural(count, favs ? "favourite" : "item"))"
        if more, let l = lastId { message += "; more: LS \(path(of: ref)) LIMIT \(limit) AFTER \(l)" }
        return Reply(rows: rows, message: message)
    }

    public func completions(for verb: Verb, argument index: Int, at ref: Ref) -> [String] {
        verb == .set && index == 1 && ref.kind == ItemsList.item ? ["name=", "value="] : []
    }

    public func show(_ ref: Ref, viewer: Viewer) throws -> Reply {
        let p = path(of: ref)
        switch ref.kind {
        case ItemsList.item:
            let id = ref.a
            guard let it = items.item(id) else { throw TabulaError(.notFound, "no \(p)") }
            let s = items.section(of: id)
            let shown = SeenItems(items, viewer: viewer, favoritesOnly: false)
            return Reply(
                rows: [
                    fieldRow("id", "\(id)", .int(Int64(id))), fieldRow("name", it.name, .string(it.name)),
                    fieldRow("value", Display.dollars(it.value), .int(Int64(it.value))),
                    fieldRow("serial", it.serial, .string(it.serial)),
                    fieldRow("created", Display.timestamp(it.created), .string(Display.timestamp(it.created))),
                    fieldRow("favorite", it.favorite ? "yes ★" : "no", .bool(it.favorite)),
                    fieldRow("section", items.bands[s].slug, .string(items.bands[s].slug)),
                    fieldRow(
                        "position", "#\(shown.position(after: id)) of \(shown.count(s))",
                        .int(Int64(shown.position(after: id)))),
                ], message: p)
        case ItemsList.section:
            return Reply(
                rows: [bandRow(ref.a, count: SeenItems(items, viewer: viewer, favoritesOnly: false).count(ref.a))],
                message: p)
        default:
            let shown = SeenItems(items, viewer: viewer, favoritesOnly: false)
            let favorites = hasFavorites(seenBy: viewer)
            return Reply(
                rows: [
                    fieldRow("items", "\(shown.total)", .int(Int64(shown.total))),
                    fieldRow(
                        "sections",
                        items.bands.indices.map { "\(items.bands[$0].title) (\(items.rangeText($0)))" }.joined(
                            separator: ", "),
                        .array(items.bands.indices.map { bandRow($0, count: shown.count($0)).json })),
                    fieldRow(
                        "favorites", favorites ? "yes" : "none yet",
                        .bool(favorites)),
                    fieldRow("filter", viewer.filter.rawValue, .string(viewer.filter.rawValue)),
                ], message: p)
        }
    }

}
