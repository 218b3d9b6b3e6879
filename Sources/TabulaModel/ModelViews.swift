import TabulaProtocol

/// Reads: `LS` and `SHOW` rows for every kind of target.
extension Model {
    func settingRow(_ i: Int) -> Row {
        let s = settings[i]
        return Row(text: "\(s.slug)/  \(s.masterRow)", json: .deferred(s))
    }

    func optionRows(_ i: Int) -> [Row] {
        let s = settings[i]
        return s.options.indices.map { o in
            let mark = o == s.selected ? "[x]" : "[ ]"
            return Row(text: "\(mark) #\(o + 1)  \(s.options[o])", json: .object([("type", .string("option")), ("index", .int(Int64(o + 1))), ("name", .string(s.optionSlug(o))), ("value", s.type.json(s.options[o])), ("selected", .bool(o == s.selected))]))
        }
    }

    func catalogJSON(_ node: CatalogNode) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("type", .string("node")), ("name", .string(node.slug)), ("title", .string(node.title)), ("view", .string(node.view.kind))]
        switch node.view {
        case .branch: pairs.append(("children", .int(Int64(node.children.count))))
        case .tabs(let t): pairs.append(("tabs", .array(t.map { .string($0) })))
        case .image(let i): pairs.append(("image", .string(i)))
        case .text(let t): pairs.append(("text", .string(t)))
        }
        return .object(pairs)
    }

    func catalogRow(_ node: CatalogNode) -> Row {
        let detail: String
        switch node.view {
        case .branch: detail = "(\(node.children.count) \(node.children.count == 1 ? "child" : "children"))"
        case .tabs(let t): detail = "[tabs: \(t.joined(separator: ", "))]"
        case .image(let i): detail = "[image: \(i)]"
        case .text: detail = "[text]"
        }
        return Row(text: "\(node.slug)\(node.view == .branch ? "/" : "")  \(node.title)  \(detail)", json: catalogJSON(node))
    }

    func itemRow(_ item: Item) -> Row { Row(text: items.row(item), json: items.json(item)) }

    func bandRow(_ s: Int) -> Row {
        let b = items.bands[s]
        return Row(text: "\(b.slug)/  \(b.title)  \(items.rangeText(s))  (\(items.count(section: s)) items)", json: .object([("type", .string("band")), ("name", .string(b.slug)), ("title", .string(b.title)), ("lower", .int(Int64(b.lower))), ("count", .int(Int64(items.count(section: s))))]))
    }

    func sectionHeader(_ s: Int, favoritesOnly: Bool) -> Row {
        let b = items.bands[s]
        let n = items.count(section: s, favoritesOnly: favoritesOnly)
        return Row(text: "== \(b.title) (\(items.rangeText(s))): \(n) \(favoritesOnly ? "favourite" : "item")\(n == 1 ? "" : "s")", json: .object([("type", .string("section")), ("name", .string(b.slug)), ("title", .string(b.title)), ("count", .int(Int64(n)))]))
    }

    static let noItems = Row(text: "No Items", json: .object([("type", .string("empty")), ("text", .string("No Items"))]))

    func menuJSON(_ s: Int) -> JSONValue {
        .object([("type", .string("menu-section")), ("name", .string(menu[s].slug)), ("title", .string(menu[s].title)), ("entries", .int(Int64(menu[s].entries.count)))])
    }
    func menuRow(_ s: Int) -> Row {
        Row(text: "\(menu[s].slug)/  \(menu[s].title)  (\(menu[s].entries.count) entries)", json: menuJSON(s))
    }
    func entryJSON(_ s: Int, _ e: Int) -> JSONValue {
        .object([("type", .string("menu-entry")), ("name", .string(menu[s].entries[e].slug)), ("title", .string(menu[s].entries[e].title)), ("path", .string(path(of: .menuEntry(s, e))))])
    }
    func entryRow(_ s: Int, _ e: Int) -> Row {
        Row(text: "\(menu[s].entries[e].slug)  \(menu[s].entries[e].title)", json: entryJSON(s, e))
    }

    /// Rows under a list, a page at a time. `after` names the last row of the previous page.
    func list(_ path: String?, limit: Int?, after: String?, viewer: Viewer) throws -> Reply {
        let t = try resolve(path, viewer: viewer).get()
        let limit = limit ?? Model.defaultPage
        func page<T>(_ all: [T], name: (T) -> String, row: (T) -> Row) throws -> Reply {
            var start = 0
            if let a = after {
                guard let i = all.firstIndex(where: { name($0) == a.lowercased() }) else { throw TabulaError(.notFound, "AFTER \(a): no such name in \(self.path(of: t))") }
                start = i + 1
            }
            let slice = all[min(start, all.count)..<min(start + limit, all.count)]
            var reply = Reply(rows: slice.map(row), message: "\(slice.count) of \(all.count)")
            if start + limit < all.count, let last = slice.last { reply.message += "; more: LS \(self.path(of: t)) LIMIT \(limit) AFTER \(name(last))" }
            return reply
        }
        switch t {
        case .root:
            let rows = [
                Row(text: "settings/  \(settings.count) settings", json: .object([("name", .string("settings")), ("count", .int(Int64(settings.count)))])),
                Row(text: "catalog/  \(catalog[0]?.children.count ?? 0) top-level nodes", json: .object([("name", .string("catalog")), ("count", .int(Int64(catalog[0]?.children.count ?? 0)))])),
                Row(text: "items/  \(items.count) items in \(items.bands.count) sections", json: .object([("name", .string("items")), ("count", .int(Int64(items.count)))])),
                Row(text: "menu/  \(menu.count) sections", json: .object([("name", .string("menu")), ("count", .int(Int64(menu.count)))])),
                Row(text: "orders/  \(orders.count) orders", json: .object([("name", .string("orders")), ("count", .int(Int64(orders.count)))])),
            ]
            return Reply(rows: rows, message: "5 lists")
        case .settings:
            return try page(Array(settings.indices), name: { settings[$0].slug }, row: settingRow)
        case .setting(let i):
            return Reply(rows: optionRows(i), message: settings[i].masterRow)
        case .catalog(let id):
            let kids = (catalog[id]?.children ?? []).compactMap { catalog[$0] }
            guard let node = catalog[id], node.view == .branch else {
                return try show(t, viewer: viewer)
            }
            return try page(kids, name: \.slug, row: catalogRow)
        case .items, .section:
            return try listItems(t, limit: limit, after: after, viewer: viewer)
        case .menu:
            return try page(Array(menu.indices), name: { menu[$0].slug }, row: menuRow)
        case .menuSection(let s):
            return try page(Array(menu[s].entries.indices), name: { menu[s].entries[$0].slug }, row: { entryRow(s, $0) })
        case .orders:
            var start = 0
            if let a = after {
                guard let id = Int(a), let p = orders.position(of: id) else { throw TabulaError(.notFound, "AFTER \(a): no order \(a)") }
                start = p + 1
            }
            let page = orders.page(from: start, limit: limit)
            var reply = Reply(rows: page.map { Row(text: $0.row, json: .deferred($0)) }, message: "\(page.count) of \(orders.count)")
            if start + page.count < orders.count, let last = page.last { reply.message += "; more: LS /orders LIMIT \(limit) AFTER \(last.id)" }
            return reply
        case .option, .item, .menuEntry, .order:
            return try show(t, viewer: viewer)
        }
    }

    /// Items by section, with headers and "No Items", paged by item id.
    func listItems(_ t: Target, limit: Int, after: String?, viewer: Viewer) throws -> Reply {
        let favs = viewer.filter == .favorites
        var sections = Array(items.bands.indices)
        if case .section(let s) = t { sections = [s] }
        var startSection = sections[0]
        var startPos = 0
        if let a = after {
            guard let id = Int(a), items.item(id) != nil, sections.contains(items.section(of: id)) else {
                throw TabulaError(.notFound, "AFTER \(a): no item \(a) in \(path(of: t))")
            }
            startSection = items.section(of: id)
            startPos = items.position(of: id, favoritesOnly: favs) + ((items.item(id)?.favorite ?? false) || !favs ? 1 : 0)
        }
        var rows: [Row] = []
        var shown = 0
        var lastId: Int?
        var more = false
        for s in sections where s >= startSection {
            let from = s == startSection ? startPos : 0
            let total = items.count(section: s, favoritesOnly: favs)
            if shown >= limit {
                more = true
                break
            }
            if from == 0 { rows.append(sectionHeader(s, favoritesOnly: favs)) }
            if total == 0 {
                rows.append(Model.noItems)
                continue
            }
            let page = items.page(section: s, from: from, limit: limit - shown, favoritesOnly: favs)
            rows += page.map(itemRow)
            shown += page.count
            lastId = page.last?.id ?? lastId
            if from + page.count < total {
                more = true
                break
            }
        }
        var message = "\(shown) \(favs ? "favourite" : "item")\(shown == 1 ? "" : "s")"
        if more, let l = lastId { message += "; more: LS \(path(of: t)) LIMIT \(limit) AFTER \(l)" }
        return Reply(rows: rows, message: message)
    }

    /// Everything about one target, a field per row.
    func show(_ t: Target, viewer: Viewer) throws -> Reply {
        func field(_ k: String, _ v: String, _ j: JSONValue) -> Row {
            Row(text: "\(k): \(v)", json: .object([("field", .string(k)), ("value", j)]))
        }
        let p = path(of: t)
        switch t {
        case .setting(let i):
            let s = settings[i]
            return Reply(rows: [
                field("title", s.title, .string(s.title)), field("type", s.type.rawValue, .string(s.type.rawValue)),
                field("selected", "\(s.selectedValue) (#\(s.selected + 1))", s.type.json(s.selectedValue)),
                field("options", s.options.joined(separator: ", "), .array(s.options.map { s.type.json($0) })),
            ], message: s.masterRow)
        case .option(let i, let o):
            let s = settings[i]
            return Reply(rows: [field("value", s.options[o], s.type.json(s.options[o])), field("index", "#\(o + 1)", .int(Int64(o + 1))), field("selected", o == s.selected ? "yes" : "no", .bool(o == s.selected))], message: p)
        case .catalog(let id) where id != 0:
            guard let node = catalog[id] else { throw TabulaError(.notFound, "no \(p)") }
            var rows = [field("title", node.title, .string(node.title)), field("view", node.view.kind, .string(node.view.kind))]
            switch node.view {
            case .branch: rows.append(field("children", node.children.compactMap { catalog[$0]?.slug }.joined(separator: ", "), .int(Int64(node.children.count))))
            case .tabs(let tabs): rows.append(field("tabs", tabs.joined(separator: ", "), .array(tabs.map { .string($0) })))
            case .image(let i): rows.append(field("image", i, .string(i)))
            case .text(let x): rows.append(field("text", x, .string(x)))
            }
            return Reply(rows: rows, message: p)
        case .item(let id):
            guard let it = items.item(id) else { throw TabulaError(.notFound, "no \(p)") }
            let s = items.section(of: id)
            return Reply(rows: [
                field("id", "\(id)", .int(Int64(id))), field("name", it.name, .string(it.name)), field("value", Display.dollars(it.value), .int(Int64(it.value))),
                field("serial", it.serial, .string(it.serial)), field("created", Display.timestamp(it.created), .string(Display.timestamp(it.created))),
                field("favorite", it.favorite ? "yes ★" : "no", .bool(it.favorite)), field("section", items.bands[s].slug, .string(items.bands[s].slug)),
                field("position", "#\(items.position(of: id) + 1) of \(items.count(section: s))", .int(Int64(items.position(of: id) + 1))),
            ], message: p)
        case .items:
            return Reply(rows: [
                field("items", "\(items.count)", .int(Int64(items.count))),
                field("sections", items.bands.indices.map { "\(items.bands[$0].title) (\(items.rangeText($0)))" }.joined(separator: ", "), .array(items.bands.indices.map { bandRow($0).json })),
                field("favorites", items.hasFavorites ? "yes (FILTER favorites is offered)" : "none (no favourites filter)", .bool(items.hasFavorites)),
                field("filter", viewer.filter.rawValue, .string(viewer.filter.rawValue)),
            ], message: p)
        case .section(let s):
            return Reply(rows: [bandRow(s)], message: p)
        case .menuEntry(let s, let e):
            return Reply(rows: [field("title", menu[s].entries[e].title, .string(menu[s].entries[e].title)), field("section", menu[s].title, .string(menu[s].slug)), field("order", "ORDER \(p)", .string(p))], message: p)
        case .order(let id):
            guard let o = orders.order(id) else { throw TabulaError(.notFound, "no \(p)") }
            return Reply(rows: [field("id", "\(id)", .int(Int64(id))), field("title", o.title, .string(o.title)), field("entry", o.entry, .string(o.entry)), field("created", Display.timestamp(o.created), .string(Display.timestamp(o.created)))], message: p)
        case .root, .settings, .catalog, .menu, .menuSection, .orders:
            return try list(p, limit: nil, after: nil, viewer: viewer)
        }
    }
}
