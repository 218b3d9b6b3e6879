/// The drill-down catalog and the menu as Protocol.md describes them, plainly: each list a
/// path's children in the order they were added, each row its fields, a branch's (or a menu
/// section's) count of children counted afresh. No code shared with TabulaModel. The oracle
/// of `EventOracleTests` for `/catalog` and `/menu`: what each change is taken or refused
/// as, and the events it makes (`events`), with `parent` where the parent is itself a row.
struct ReferenceTree {
    /// A row's fields but its count of children (`children` for a catalog branch, `entries`
    /// for a menu section), which `row` counts.
    var fields: [String: [(String, RefValue)]] = [:]
    /// Each list's children by name, in order.
    var children: [String: [String]] = ["/catalog": [], "/menu": []]
    var events: [ReferenceEvent] = []

    static func parent(_ path: String) -> String { String(path[..<path.lastIndex(of: "/")!]) }
    static func name(_ path: String) -> String { String(path[path.index(after: path.lastIndex(of: "/")!)...]) }

    /// The key a row counts its children under, if it has children.
    func countKey(_ path: String) -> String? {
        guard let f = fields[path] else { return nil }
        if f.contains(where: { $0.0 == "view" && $0.1 == .string("branch") }) { return "children" }
        if f.contains(where: { $0.0 == "type" && $0.1 == .string("menu-section") }) { return "entries" }
        return nil
    }

    /// The row of `path` as its list's `LS` shows it in JSON.
    func row(_ path: String) -> RefValue {
        var f = fields[path] ?? []
        if let key = countKey(path) { f.append((key, .int(children[path]?.count ?? 0))) }
        return .object(f)
    }

    /// The parent's row, when the parent is a row (not a top-level list).
    func parentRow(_ path: String) -> RefValue? {
        let p = Self.parent(path)
        return fields[p] == nil ? nil : row(p)
    }

    /// Takes a row as the server lists it (its `rev` left out: events carry none).
    mutating func seed(_ path: String, row: RefValue) {
        guard case .object(let o) = row else { return }
        fields[path] = o.filter { $0.0 != "rev" && $0.0 != "children" && $0.0 != "entries" }
        children[Self.parent(path), default: []].append(Self.name(path))
        if countKey(path) != nil { children[path] = children[path] ?? [] }
    }

    /// `ADD parent name [text words]`: a catalog branch, a text leaf, a menu section or entry.
    mutating func add(under parent: String, name: String, text: String?) -> ReferenceItems.Outcome {
        guard parent == "/catalog" || parent == "/menu" || fields[parent] != nil else { return .refused("NOTFOUND") }
        guard children[parent] != nil else { return .refused("INVALID") }
        let path = parent + "/" + name
        var f: [(String, RefValue)]
        if parent.hasPrefix("/catalog") {
            f = [("type", .string("node")), ("name", .string(name)), ("title", .string(name))]
            f += text.map { [("view", .string("text")), ("text", .string($0))] } ?? [("view", .string("branch"))]
        } else if parent == "/menu" {
            f = [("type", .string("menu-section")), ("name", .string(name)), ("title", .string(name))]
        } else {
            f = [("type", .string("menu-entry")), ("name", .string(name)), ("title", .string(name))]
            f.append(("path", .string(path)))
        }
        fields[path] = f
        children[parent, default: []].append(name)
        if countKey(path) != nil { children[path] = [] }
        events.append(
            ReferenceEvent(
                kind: "add", path: path, value: row(path), at: ReferenceEvent.place(children[parent]!.count),
                parent: parentRow(path)))
        return .taken
    }

    /// `SET path title=T`.
    mutating func setTitle(_ path: String, _ title: String) -> ReferenceItems.Outcome {
        guard let f = fields[path], let i = f.firstIndex(where: { $0.0 == "title" }) else {
            return .refused("NOTFOUND")
        }
        guard f[i].1 != .string(title) else { return .taken }
        let p = Self.parent(path)
        let siblings = (children[p] ?? []).map { p + "/" + $0 }.filter { $0 != path }
        if siblings.contains(where: { fields[$0]?.first { $0.0 == "title" }?.1 == .string(title) }) {
            return .refused("EXISTS")  // siblings never share a title
        }
        let prev = row(path)
        fields[path]![i].1 = .string(title)
        let here = ReferenceEvent.place(children[p]!.firstIndex(of: Self.name(path))! + 1)
        events.append(ReferenceEvent(kind: "set", path: path, value: row(path), prev: prev, at: here, from: here))
        return .taken
    }

    /// `RM path`: the row and everything under it.
    mutating func remove(_ path: String) -> ReferenceItems.Outcome {
        guard fields[path] != nil else { return .refused("NOTFOUND") }
        let prev = row(path), p = Self.parent(path)
        let i = children[p]!.firstIndex(of: Self.name(path))!
        children[p]!.remove(at: i)
        for k in fields.keys where k == path || k.hasPrefix(path + "/") {
            fields[k] = nil
            children[k] = nil
        }
        events.append(
            ReferenceEvent(
                kind: "rm", path: path, prev: prev, from: ReferenceEvent.place(i + 1), parent: parentRow(path)))
        return .taken
    }

    /// Every row's path, parents before their children.
    var paths: [String] {
        var out: [String] = []
        func walk(_ p: String) {
            for n in children[p] ?? [] {
                out.append(p + "/" + n)
                walk(p + "/" + n)
            }
        }
        walk("/catalog")
        walk("/menu")
        return out
    }

    /// What `LS` of each list shows, one line a row: the oracle of the state itself.
    var listed: [String] { paths.map { "\($0) \(row($0))" } }
}
