import TabulaProtocol

/// What applying a command produced: the reply, the event (for a change) and what to store.
public struct Outcome: Sendable {
    /// The reply to the requester.
    public var reply: Reply
    /// The change, for watchers; nil when nothing changed.
    public var event: Event?
    /// What durable storage must write.
    public var mutations: [Mutation]

    init(_ reply: Reply, event: Event? = nil, mutations: [Mutation] = []) {
        self.reply = reply
        self.event = event
        self.mutations = mutations
    }

    static func fail(_ e: TabulaError) -> Outcome { Outcome(Reply(error: e)) }
}

/// The whole shared state: the four stores in one path namespace, and the revision.
///
/// Pure: no I/O, no threads, no clock (time and randomness are passed in).
public struct Model: Sendable {
    /// The revision of the last change; every successful change adds one.
    public private(set) var revision: UInt64 = 0
    /// Settings (seed 000), in order.
    public internal(set) var settings: [Setting] = []
    /// Catalog nodes (seed 001) by id; 0 is the root.
    public internal(set) var catalog: [Int: CatalogNode] = [0: CatalogNode(id: 0, parent: 0, slug: "catalog", title: "Catalog", view: .branch, children: [])]
    var nextCatalogId = 1
    /// Items (seed 002).
    public internal(set) var items = ItemStore()
    /// The menu (seed 003).
    public internal(set) var menu: [MenuSection] = []
    /// The live order list (seed 003).
    public internal(set) var orders = OrderBook()

    /// The top-level names.
    public static let roots = ["settings", "catalog", "items", "menu", "orders"]
    /// The default page size of `LS` on big lists.
    public static let defaultPage = 100

    /// An empty model.
    public init() {}

    /// The model rebuilt from stored state.
    public init(snapshot s: ModelSnapshot) {
        revision = s.revision
        settings = s.settings
        for (node, _) in s.catalog { catalog[node.id] = node; nextCatalogId = max(nextCatalogId, node.id + 1) }
        for (node, pos) in s.catalog.sorted(by: { $0.1 < $1.1 }) {
            _ = pos
            catalog[node.parent]?.children.append(node.id)
        }
        items = ItemStore(bands: s.bands.isEmpty ? Band.defaults : s.bands)
        items.load(s.items)
        items.reserveIds(upTo: s.nextItemId)
        menu = s.menu
        orders.load(s.orders)
        orders.reserveIds(upTo: s.nextOrderId)
    }

    /// Everything, as storage would hold it.
    public var snapshot: ModelSnapshot {
        var nodes: [(CatalogNode, Int)] = []
        for node in catalog.values where node.id != 0 {
            var n = node
            n.children = []
            nodes.append((n, catalog[node.parent]?.children.firstIndex(of: node.id) ?? 0))
        }
        var all: [Item] = []
        for s in items.bands.indices { all += items.page(section: s, from: 0, limit: items.count(section: s), favoritesOnly: false) }
        return ModelSnapshot(revision: revision, settings: settings, catalog: nodes, items: all, bands: items.bands, menu: menu, orders: orders.page(from: 0, limit: orders.count), nextItemId: items.nextId, nextOrderId: orders.nextId)
    }

    // MARK: - Resolving paths

    /// The canonical path of a target.
    public func path(of t: Target) -> String {
        switch t {
        case .root: return "/"
        case .settings: return "/settings"
        case .setting(let i): return settings[i].path
        case .option(let i, let o): return "\(settings[i].path)/\(settings[i].optionSlug(o))"
        case .catalog(let id):
            var segs: [String] = []
            var n = id
            while n != 0, let node = catalog[n] {
                segs.append(node.slug)
                n = node.parent
            }
            return "/catalog" + segs.reversed().map { "/" + $0 }.joined()
        case .items: return "/items"
        case .section(let s): return "/items/\(items.bands[s].slug)"
        case .item(let id): return "/items/\(id)"
        case .menu: return "/menu"
        case .menuSection(let s): return "/menu/\(menu[s].slug)"
        case .menuEntry(let s, let e): return "/menu/\(menu[s].slug)/\(menu[s].entries[e].slug)"
        case .orders: return "/orders"
        case .order(let id): return "/orders/\(id)"
        }
    }

    /// The names under a list target, for suggestions and completion (big lists give only their first names).
    public func childNames(of t: Target, limit: Int = 200) -> [(name: String, isList: Bool)] {
        switch t {
        case .root: return Model.roots.map { ($0, true) }
        case .settings: return settings.map { ($0.slug, true) }
        case .setting(let i): return settings[i].options.indices.map { (settings[i].optionSlug($0), false) }
        case .catalog(let id): return (catalog[id]?.children ?? []).compactMap { catalog[$0] }.map { ($0.slug, $0.view == .branch) }
        case .items:
            var out = items.bands.map { ($0.slug, true) }
            for s in items.bands.indices where out.count < limit {
                out += items.page(section: s, from: 0, limit: limit - out.count, favoritesOnly: false).map { (String($0.id), false) }
            }
            return out
        case .section(let s): return items.page(section: s, from: 0, limit: limit, favoritesOnly: false).map { (String($0.id), false) }
        case .menu: return menu.map { ($0.slug, true) }
        case .menuSection(let s): return menu[s].entries.map { ($0.slug, false) }
        case .orders: return orders.page(from: 0, limit: limit).map { (String($0.id), false) }
        case .option, .item, .menuEntry, .order: return []
        }
    }

    /// The child named `name` of `t`.
    func child(of t: Target, named name: String) -> Target? {
        let lower = name.utf8.contains { $0 >= 65 && $0 <= 90 } ? name.lowercased() : name
        switch t {
        case .root:
            switch lower {
            case "settings": return .settings
            case "catalog": return .catalog(0)
            case "items": return .items
            case "menu": return .menu
            case "orders": return .orders
            default: return nil
            }
        case .settings: return settings.firstIndex { $0.slug == lower }.map { .setting($0) }
        case .setting(let i): return settings[i].optionIndex(named: name).map { .option(i, $0) }
        case .catalog(let id):
            return catalog[id]?.children.first { catalog[$0]?.slug == lower }.map { .catalog($0) }
        case .items:
            if let id = Int(name), items.item(id) != nil { return .item(id) }
            return items.bands.firstIndex { $0.slug == lower }.map { .section($0) }
        case .section(let s):
            if let id = Int(name), items.item(id) != nil, items.section(of: id) == s { return .item(id) }
            return nil
        case .menu: return menu.firstIndex { $0.slug == lower }.map { .menuSection($0) }
        case .menuSection(let s): return menu[s].entries.firstIndex { $0.slug == lower }.map { .menuEntry(s, $0) }
        case .orders:
            if let id = Int(name), orders.order(id) != nil { return .order(id) }
            return nil
        case .option, .item, .menuEntry, .order: return nil
        }
    }

    /// Resolves `path` (absolute, or relative to `viewer.cwd`) or says what is missing.
    public func resolve(_ path: String?, viewer: Viewer) -> Result<Target, TabulaError> {
        if let path, let t = resolvePlain(path, cwd: viewer.cwd) { return .success(t) }
        return resolveBySegments(path, viewer: viewer)
    }

    /// Any path: `.` and `..` applied, and an error that says what is missing.
    func resolveBySegments(_ path: String?, viewer: Viewer) -> Result<Target, TabulaError> {
        let segs = ModelPath.segments(path, cwd: viewer.cwd)
        var t = Target.root
        for (i, seg) in segs.enumerated() {
            guard let next = child(of: t, named: seg) else {
                let here = ModelPath.join(Array(segs[..<i]))
                if !t.isList {
                    return .failure(TabulaError(.notFound, "\(self.path(of: t)) has nothing under it; SHOW \(self.path(of: t)) to see it"))
                }
                let names = childNames(of: t).map(\.name)
                if let s = EditDistance.closest(to: seg, in: names) {
                    return .failure(TabulaError(.notFound, "no \(ModelPath.join(Array(segs[...i]))); did you mean \(ModelPath.join(Array(segs[..<i]) + [s]))?"))
                }
                return .failure(TabulaError(.notFound, "no \(ModelPath.join(Array(segs[...i]))); LS \(here) lists what is there"))
            }
            t = next
        }
        return .success(t)
    }

    /// The common case, fast: a path of plain names (no `.` or `..`) that exists, walked
    /// without building a list of segments. Nil otherwise; `resolve` then does the rest.
    func resolvePlain(_ path: String, cwd: String) -> Target? {
        var t = Target.root
        func walk(_ path: String) -> Bool {
            var p = path
            return p.withUTF8 { u in
                var start = 0
                for i in 0...u.count where i == u.count || u[i] == UInt8(ascii: "/") {
                    if start != i {
                        if u[start] == UInt8(ascii: ".") { return false }
                        let name = String(decoding: UnsafeBufferPointer(rebasing: u[start..<i]), as: UTF8.self)
                        guard let next = child(of: t, named: name) else { return false }
                        t = next
                    }
                    start = i + 1
                }
                return true
            }
        }
        if path.utf8.first != UInt8(ascii: "/") && !walk(cwd) { return nil }
        return walk(path) ? t : nil
    }

    // MARK: - Applying commands

    /// Answers a command that changes nothing shared (LS, SHOW, CD, PWD, FILTER, BANDS
    /// without arguments, COMPLETE); `viewer` may change. Nil for a write or a verb the model
    /// does not handle.
    public func read(_ command: Command, viewer: inout Viewer) -> Reply? {
        do {
            switch command {
            case .ls(let path, let limit, let after):
                return try list(path, limit: limit, after: after, viewer: viewer)
            case .show(let path):
                return try show(try resolve(path, viewer: viewer).get(), viewer: viewer)
            case .cd(let path):
                let t = try resolve(path ?? "/", viewer: viewer).get()
                guard t.isList else { throw TabulaError(.invalid, "\(self.path(of: t)) is not a list; SHOW it instead") }
                viewer.cwd = self.path(of: t)
                return Reply(message: viewer.cwd)
            case .pwd:
                // The current path may have been removed by someone else; fall back to its nearest ancestor.
                while case .failure = resolve(viewer.cwd, viewer: Viewer()) { viewer.cwd = ModelPath.join(ModelPath.segments("..", cwd: viewer.cwd)) }
                return Reply(message: viewer.cwd)
            case .filter(let f):
                return try filter(f, viewer: &viewer)
            case .bands(let args) where args.isEmpty:
                return Reply(rows: items.bands.indices.map { bandRow($0) }, message: "\(items.bands.count) bands")
            case .complete(let line):
                let c = Completer.complete(line, model: self, viewer: viewer)
                return Reply(rows: c.map { Row(text: $0, json: .string($0)) }, message: "\(c.count) candidates")
            default:
                return nil
            }
        } catch let e as TabulaError {
            return Reply(error: e)
        } catch {
            return Reply(error: TabulaError(.invalid, "\(error)"))
        }
    }

    /// Applies one model command for `viewer`: reads as `read`; a successful write bumps the
    /// revision and returns its event and mutations.
    public mutating func apply(_ command: Command, viewer: inout Viewer, now: Double, rng: inout some RandomNumberGenerator) -> Outcome {
        if let reply = read(command, viewer: &viewer) { return Outcome(reply) }
        guard command.isWrite else { return .fail(TabulaError(.invalid, "the model does not handle this verb")) }
        do {
            var out = try write(command, viewer: viewer, now: now, rng: &rng)
            revision += 1
            out.event?.rev = revision
            return out
        } catch let e as TabulaError {
            return .fail(e)
        } catch {
            return .fail(TabulaError(.invalid, "\(error)"))
        }
    }

    func filter(_ f: ItemFilter?, viewer: inout Viewer) throws -> Reply {
        switch f {
        case nil:
            let offered = items.hasFavorites ? "favorites filter available" : "no favourites yet, so no favorites filter"
            return Reply(message: "\(viewer.filter.rawValue); \(offered)")
        case .all?:
            viewer.filter = .all
            return Reply(message: "all")
        case .favorites?:
            guard items.hasFavorites else {
                throw TabulaError(.conflict, "there are no favourites to filter to; FAV an item first")
            }
            viewer.filter = .favorites
            return Reply(message: "favorites")
        }
    }

    func event(_ kind: String, _ t: Target, summary: String, value: JSONValue) -> Event {
        Event(rev: 0, kind: kind, path: path(of: t), summary: summary, value: value)
    }

    /// The outcome of a change shown as one row: the reply holds the row, and the event
    /// carries the same row's JSON (built once, shared) and by default its text.
    func changed(_ kind: String, _ t: Target, row: Row, message: String, summary: String? = nil, mutations: [Mutation]) -> Outcome {
        Outcome(Reply(rows: [row], message: message), event: Event(rev: 0, kind: kind, path: path(of: t), summary: summary ?? row.text, value: row.json), mutations: mutations)
    }

    mutating func write(_ command: Command, viewer: Viewer, now: Double, rng: inout some RandomNumberGenerator) throws -> Outcome {
        switch command {
        case .select(let path, let option):
            let t = try resolve(path, viewer: viewer).get()
            guard case .setting(let i) = t else { throw TabulaError(.invalid, "SELECT needs a setting such as /settings/\(settings.first?.slug ?? "my-int"); \(self.path(of: t)) is not one") }
            let idx: Int
            switch option {
            case .index(let n):
                guard n >= 1 && n <= settings[i].options.count else {
                    throw TabulaError(.notFound, "\(settings[i].title) has options #1 to #\(settings[i].options.count), not #\(n)")
                }
                idx = n - 1
            case .value(let v):
                guard let found = settings[i].optionIndex(named: v) else {
                    let list = settings[i].options.joined(separator: ", ")
                    throw TabulaError(.notFound, "\(settings[i].title) has no option '\(v)'; its options are \(list)")
                }
                idx = found
            }
            settings[i].selected = idx
            let s = settings[i]
            return changed("select", t, row: settingRow(i), message: s.masterRow, summary: s.masterRow, mutations: [.putSetting(s, position: i)])
        case .add(let path, let args):
            return try add(try resolve(path, viewer: viewer).get(), args, now: now, rng: &rng)
        case .set(let path, let fields):
            return try set(try resolve(path, viewer: viewer).get(), fields)
        case .rm(let path):
            return try remove(try resolve(path, viewer: viewer).get())
        case .mv(let path, let position):
            let t = try resolve(path, viewer: viewer).get()
            guard case .item(let id) = t else { throw TabulaError(.invalid, "MV moves items; \(self.path(of: t)) is not an item") }
            return try move(id, to: position, viewer: viewer)
        case .fav(let path, let action):
            let t = try resolve(path, viewer: viewer).get()
            guard case .item(let id) = t, let item = items.item(id) else { throw TabulaError(.invalid, "FAV marks items; \(self.path(of: t)) is not an item") }
            let on = action == .toggle ? !item.favorite : action == .on
            guard let changed = items.setFavorite(id, on) else { throw TabulaError(.notFound, "no item \(id)") }
            return self.changed("fav", t, row: itemRow(changed), message: on ? "favourite" : "not a favourite", mutations: [.putItem(changed)])
        case .order(let path):
            let (s, e) = try menuEntry(path, viewer: viewer)
            let entryPath = self.path(of: .menuEntry(s, e))
            let o = orders.append(entry: entryPath, title: menu[s].entries[e].title, created: now)
            return changed("order", .order(o.id), row: Row(text: o.row, json: .deferred(o)), message: "order \(o.id): \(o.title)", mutations: [.putOrder(o)])
        case .bands(let args):
            let bands = try Band.parse(args).get()
            items.setBands(bands)
            let rows = items.bands.indices.map { bandRow($0) }
            let summary = items.bands.indices.map { "\(items.bands[$0].title) (\(items.rangeText($0)))" }.joined(separator: ", ")
            return Outcome(Reply(rows: rows, message: "\(bands.count) bands"), event: event("bands", .items, summary: summary, value: .array(rows.map(\.json))), mutations: [.bands(bands)])
        default:
            throw TabulaError(.invalid, "not a write")
        }
    }

    /// Finds a menu entry by path, or by its bare name when that is unique across sections.
    func menuEntry(_ path: String, viewer: Viewer) throws -> (Int, Int) {
        if !path.utf8.contains(UInt8(ascii: "/")) {
            let matches = menu.indices.flatMap { s in menu[s].entries.indices.filter { menu[s].entries[$0].slug == path.lowercased() }.map { (s, $0) } }
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 {
                throw TabulaError(.invalid, "\(path) is on the menu more than once: \(matches.map { self.path(of: .menuEntry($0.0, $0.1)) }.joined(separator: ", ")); give the full path")
            }
        }
        switch resolve(path, viewer: viewer) {
        case .success(.menuEntry(let s, let e)): return (s, e)
        case .success(let t): throw TabulaError(.invalid, "ORDER takes a menu entry such as /menu/pizza/margherita; \(self.path(of: t)) is not one")
        case .failure(let e):
            let all = menu.flatMap { $0.entries.map(\.slug) }
            if let s = EditDistance.closest(to: path, in: all) { throw TabulaError(.notFound, "no menu entry \(path); did you mean \(s)?") }
            throw e
        }
    }

    mutating func move(_ id: Int, to position: Int, viewer: Viewer) throws -> Outcome {
        guard viewer.filter == .all else {
            throw TabulaError(.conflict, "moving is refused while this connection shows favourites only, since positions would be ambiguous; FILTER all first")
        }
        let s = items.section(of: id)
        let n = items.count(section: s)
        guard position <= n else {
            throw TabulaError(.invalid, "position \(position) is past the end of \(items.bands[s].slug), which has \(n) items; items cannot leave the section of their price (change the value with SET to do that)")
        }
        let changed = items.move(id, to: position - 1)
        guard let item = items.item(id) else { throw TabulaError(.notFound, "no item \(id)") }
        let row = itemRow(item)
        return self.changed("mv", .item(id), row: row, message: "\(id) is now #\(position) in \(items.bands[s].slug)", summary: "#\(position) in \(items.bands[s].slug): " + row.text, mutations: changed.map { .putItem($0) })
    }

    mutating func add(_ t: Target, _ args: [String], now: Double, rng: inout some RandomNumberGenerator) throws -> Outcome {
        switch t {
        case .settings:
            guard args.count >= 3 else { throw TabulaError(.syntax, "ADD /settings takes a title, a type (\(OptionType.allCases.map(\.rawValue).joined(separator: "|"))) and at least one option, e.g. ADD /settings \"My Size\" int 1 2 3") }
            guard let type = OptionType(rawValue: args[1].lowercased()) else {
                throw TabulaError(.invalid, "unknown option type '\(args[1])'; use one of \(OptionType.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let slug = Slug.make(args[0])
            guard !settings.contains(where: { $0.slug == slug }) else { throw TabulaError(.exists, "/settings/\(slug) exists already") }
            var setting = Setting(slug: slug, title: args[0], type: type, options: [], selected: 0)
            for raw in args.dropFirst(2) { try addOption(raw, to: &setting) }
            settings.append(setting)
            let i = settings.count - 1
            return changed("add", .setting(i), row: settingRow(i), message: "/settings/\(slug)", summary: setting.masterRow, mutations: [.putSetting(setting, position: i)])
        case .setting(let i):
            guard !args.isEmpty else { throw TabulaError(.syntax, "ADD \(path(of: t)) takes one or more option values, e.g. ADD /settings/my-int 128") }
            var s = settings[i]
            for raw in args { try addOption(raw, to: &s) }
            settings[i] = s
            return Outcome(Reply(rows: optionRows(i), message: "\(s.options.count) options"), event: event("set", t, summary: s.masterRow, value: s.json), mutations: [.putSetting(s, position: i)])
        case .catalog(let parentId):
            guard let title = args.first, !title.isEmpty else {
                throw TabulaError(.syntax, "ADD \(path(of: t)) takes a title, then optionally tabs [names…], image [name] or text [words…]")
            }
            guard let parent = catalog[parentId], parent.view == .branch else {
                throw TabulaError(.invalid, "\(path(of: t)) is a leaf; only branches have children")
            }
            let view = try catalogView(Array(args.dropFirst()), title: title)
            let slug = Slug.unique(title) { name in parent.children.contains { catalog[$0]?.slug == name } }
            let node = CatalogNode(id: nextCatalogId, parent: parentId, slug: slug, title: title, view: view, children: [])
            nextCatalogId += 1
            catalog[node.id] = node
            catalog[parentId]?.children.append(node.id)
            let pos = (catalog[parentId]?.children.count ?? 1) - 1
            return changed("add", .catalog(node.id), row: catalogRow(node), message: path(of: .catalog(node.id)), mutations: [.putCatalogNode(node, position: pos)])
        case .items, .section:
            let name: String, value: Int, serial: String
            if args.isEmpty {
                (name, value, serial) = RandomItem.make(using: &rng)
            } else {
                guard args.count == 2 else { throw TabulaError(.syntax, "ADD /items takes a name and a value (ADD /items \"Red Chair\" 42), or nothing for a random item") }
                name = args[0]
                guard !name.isEmpty else { throw TabulaError(.invalid, "an item needs a name") }
                value = try dollars(args[1])
                serial = RandomItem.serial(using: &rng)
            }
            let item = items.add(name: name, value: value, serial: serial, created: now)
            return changed("add", .item(item.id), row: itemRow(item), message: "/items/\(item.id) in \(items.bands[items.section(of: item.id)].slug)", mutations: [.putItem(item)])
        case .menu:
            guard args.count == 1 else { throw TabulaError(.syntax, "ADD /menu takes one section title, e.g. ADD /menu Drinks") }
            let slug = Slug.make(args[0])
            guard !menu.contains(where: { $0.slug == slug }) else { throw TabulaError(.exists, "/menu/\(slug) exists already") }
            menu.append(MenuSection(slug: slug, title: args[0], entries: []))
            let s = menu.count - 1
            return changed("add", .menuSection(s), row: menuRow(s), message: "/menu/\(slug)", summary: args[0], mutations: [.menu(menu)])
        case .menuSection(let s):
            guard args.count == 1 else { throw TabulaError(.syntax, "ADD \(path(of: t)) takes one entry title, e.g. ADD \(path(of: t)) \"Calzone\"") }
            let slug = Slug.make(args[0])
            guard !menu[s].entries.contains(where: { $0.slug == slug }) else { throw TabulaError(.exists, "\(path(of: t))/\(slug) exists already") }
            menu[s].entries.append(MenuEntry(slug: slug, title: args[0]))
            let e = menu[s].entries.count - 1
            return changed("add", .menuEntry(s, e), row: entryRow(s, e), message: path(of: .menuEntry(s, e)), summary: args[0], mutations: [.menu(menu)])
        case .orders:
            throw TabulaError(.invalid, "orders are placed with ORDER menu-entry, e.g. ORDER /menu/pizza/margherita")
        default:
            throw TabulaError(.invalid, "nothing can be added under \(path(of: t))")
        }
    }

    func addOption(_ raw: String, to s: inout Setting) throws {
        let c = try s.type.canonical(raw).get()
        guard !s.options.contains(c), !s.options.contains(where: { Slug.make($0) == Slug.make(c) }) else {
            throw TabulaError(.exists, "\(s.title) already has option \(c)")
        }
        s.options.append(c)
    }

    func catalogView(_ spec: [String], title: String) throws -> CatalogView {
        guard let kind = spec.first?.lowercased() else { return .branch }
        let rest = Array(spec.dropFirst())
        switch kind {
        case "branch": return .branch
        case "tabs": return .tabs(rest.isEmpty ? ["View One", "View Two"] : rest)
        case "image":
            guard rest.count <= 1 else { throw TabulaError(.syntax, "an image leaf takes one image name") }
            return .image(rest.first ?? "Image.jpg")
        case "text": return .text(rest.isEmpty ? title : rest.joined(separator: " "))
        default: throw TabulaError(.invalid, "unknown view '\(spec[0])'; use tabs, image or text (or nothing for a branch)")
        }
    }

    func dollars(_ raw: String) throws -> Int {
        let s = raw.hasPrefix("$") ? String(raw.dropFirst()) : raw
        guard let v = Int(s), v >= 0, v <= 1_000_000_000 else {
            throw TabulaError(.invalid, "'\(raw)' is not a value in whole dollars (0 to 1000000000), e.g. 42 or $42")
        }
        return v
    }

    mutating func set(_ t: Target, _ fields: [FieldAssignment]) throws -> Outcome {
        func unknown(_ f: FieldAssignment, _ known: String) -> TabulaError {
            TabulaError(.invalid, "\(path(of: t)) has no field '\(f.field)'; it has \(known)")
        }
        switch t {
        case .setting(let i):
            var setting = settings[i]
            for f in fields {
                guard f.field == "title", !f.value.isEmpty else { throw unknown(f, "title (select options with SELECT)") }
                setting.title = f.value
            }
            settings[i] = setting
            let s = setting
            return changed("set", t, row: settingRow(i), message: s.masterRow, summary: s.masterRow, mutations: [.putSetting(s, position: i)])
        case .catalog(let id) where id != 0:
            guard var node = catalog[id] else { throw TabulaError(.notFound, "no catalog node") }
            for f in fields {
                switch (f.field, node.view) {
                case ("title", _) where !f.value.isEmpty: node.title = f.value
                case ("image", .image): node.view = .image(f.value)
                case ("text", .text): node.view = .text(f.value)
                case ("tabs", .tabs): node.view = .tabs(f.value.split(separator: ",").map { String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) })
                default: throw unknown(f, "title" + (node.view == .branch ? "" : " and \(node.view.kind)"))
                }
            }
            catalog[id] = node
            let pos = catalog[node.parent]?.children.firstIndex(of: id) ?? 0
            return changed("set", t, row: catalogRow(node), message: path(of: t), mutations: [.putCatalogNode(node, position: pos)])
        case .item(let id):
            var newName: String?
            var newValue: Int?
            for f in fields {
                switch f.field {
                case "name":
                    guard !f.value.isEmpty else { throw TabulaError(.invalid, "an item needs a name") }
                    newName = f.value
                case "value", "price": newValue = try dollars(f.value)
                default: throw unknown(f, "name and value")
                }
            }
            if let n = newName { _ = items.rename(id, to: n) }
            if let v = newValue { _ = items.reprice(id, to: v) }
            guard let item = items.item(id) else { throw TabulaError(.notFound, "no item \(id)") }
            return changed("set", t, row: itemRow(item), message: "/items/\(id) in \(items.bands[items.section(of: id)].slug)", mutations: [.putItem(item)])
        case .menuSection(let s):
            menu[s].title = try onlyTitle(fields, unknown)
            return changed("set", t, row: menuRow(s), message: path(of: t), summary: menu[s].title, mutations: [.menu(menu)])
        case .menuEntry(let s, let e):
            menu[s].entries[e].title = try onlyTitle(fields, unknown)
            return changed("set", t, row: entryRow(s, e), message: path(of: t), summary: menu[s].entries[e].title, mutations: [.menu(menu)])
        default:
            throw TabulaError(.invalid, "\(path(of: t)) has no fields to SET")
        }
    }

    /// The new title from fields that may only set `title` (checked before anything changes).
    func onlyTitle(_ fields: [FieldAssignment], _ unknown: (FieldAssignment, String) -> TabulaError) throws -> String {
        var title: String?
        for f in fields {
            guard f.field == "title", !f.value.isEmpty else { throw unknown(f, "title") }
            title = f.value
        }
        guard let title else { throw TabulaError(.syntax, "SET needs field=value") }
        return title
    }

    mutating func remove(_ t: Target) throws -> Outcome {
        let p = path(of: t)
        switch t {
        case .setting(let i):
            let gone = settings.remove(at: i)
            var muts: [Mutation] = [.deleteSetting(slug: gone.slug)]
            for j in i..<settings.count { muts.append(.putSetting(settings[j], position: j)) }
            return Outcome(Reply(message: "removed \(p)"), event: Event(rev: 0, kind: "rm", path: p, summary: gone.title, value: .null), mutations: muts)
        case .option(let i, let o):
            guard settings[i].options.count > 1 else { throw TabulaError(.conflict, "\(p) is the only option of \(settings[i].title); a setting needs one (RM /settings/\(settings[i].slug) removes the setting)") }
            guard settings[i].selected != o else { throw TabulaError(.conflict, "\(p) is selected; SELECT another option first") }
            settings[i].options.remove(at: o)
            if settings[i].selected > o { settings[i].selected -= 1 }
            let s = settings[i]
            return Outcome(Reply(message: "removed \(p)"), event: event("set", .setting(i), summary: s.masterRow, value: s.json), mutations: [.putSetting(s, position: i)])
        case .catalog(let id) where id != 0:
            guard let node = catalog[id] else { throw TabulaError(.notFound, "no \(p)") }
            var doomed: [Int] = []
            var stack = [id]
            while let n = stack.popLast() {
                doomed.append(n)
                stack += catalog[n]?.children ?? []
            }
            for n in doomed { catalog[n] = nil }
            catalog[node.parent]?.children.removeAll { $0 == id }
            var muts: [Mutation] = [.deleteCatalogNodes(doomed)]
            for (pos, sib) in (catalog[node.parent]?.children ?? []).enumerated() {
                if let sn = catalog[sib] { muts.append(.putCatalogNode(sn, position: pos)) }
            }
            return Outcome(Reply(message: "removed \(p) (\(doomed.count) nodes)"), event: Event(rev: 0, kind: "rm", path: p, summary: node.title, value: .null), mutations: muts)
        case .item(let id):
            guard let gone = items.remove(id) else { throw TabulaError(.notFound, "no \(p)") }
            return Outcome(Reply(message: "removed \(p)"), event: Event(rev: 0, kind: "rm", path: p, summary: gone.name, value: .null), mutations: [.deleteItem(id)])
        case .menuSection(let s):
            let gone = menu.remove(at: s)
            return Outcome(Reply(message: "removed \(p)"), event: Event(rev: 0, kind: "rm", path: p, summary: gone.title, value: .null), mutations: [.menu(menu)])
        case .menuEntry(let s, let e):
            let gone = menu[s].entries.remove(at: e)
            return Outcome(Reply(message: "removed \(p)"), event: Event(rev: 0, kind: "rm", path: p, summary: gone.title, value: .null), mutations: [.menu(menu)])
        case .order(let id):
            guard let gone = orders.remove(id) else { throw TabulaError(.notFound, "no \(p)") }
            return Outcome(Reply(message: "removed \(p)"), event: Event(rev: 0, kind: "rm", path: p, summary: gone.title, value: .null), mutations: [.deleteOrder(id)])
        case .orders:
            let n = orders.count
            orders.clear()
            let what = n == 1 ? "1 order" : "\(n) orders"
            return Outcome(Reply(message: "cleared \(what)"), event: Event(rev: 0, kind: "clear", path: p, summary: "\(what) cleared", value: .null), mutations: [.clearOrders])
        default:
            throw TabulaError(.invalid, "\(p) cannot be removed" + (t == .root || p.split(separator: "/").count == 1 ? "; the five top-level lists always exist" : ""))
        }
    }
}
