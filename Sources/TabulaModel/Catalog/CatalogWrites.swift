import TabulaProtocol

/// Writes to `/catalog`: add a node under a branch, change a node's fields, remove a subtree.
extension CatalogList {
    public mutating func write(_ w: Write, at ref: Ref, viewer: Viewer, now: Double, rng: inout SplitMix64) throws
        -> Outcome?
    {
        switch w {
        case .add(let args): return try add(args, under: CatalogList.id(ref))
        case .set(let fields) where ref.kind != 0: return try set(ref.a, fields)
        case .remove where ref.kind != 0: return try remove(ref.a)
        default: return nil
        }
    }

    func put(_ id: Int) -> Mutation? {
        guard let node = nodes[id] else { return nil }
        return CatalogCodec.put(node)
    }

    mutating func add(_ args: [String], under parentId: Int) throws -> Outcome {
        let p = path(of: CatalogList.ref(parentId))
        guard let title = args.first else {
            throw TabulaError(
                .syntax, "ADD \(p) takes a title, then optionally tabs [names…], image [name] or text [words…]")
        }
        _ = try Title.checked(title, of: "a catalog node")
        guard let parent = nodes[parentId], parent.view == .branch else {
            throw TabulaError(.invalid, "\(p) is a leaf; only branches have children")
        }
        // Siblings never share a title, as everywhere else (SET, settings, the menu).
        if let twin = child(of: parentId, titled: title) {
            throw TabulaError(
                .exists,
                "\(path(of: CatalogList.ref(twin))) exists already, titled \(nodes[twin]?.title ?? title); pick another title"
            )
        }
        let view = try CatalogList.view(Array(args.dropFirst()), title: title)
        let node = CatalogNode(
            id: nextId, parent: parentId, slug: uniqueSlug(title, under: parentId), title: title, view: view,
            key: nextKey(under: parentId))
        nextId += 1
        link(node)
        let ref = CatalogList.ref(node.id)
        return .changed(
            .add, path: path(of: ref), entry: (Model.catalogIndex, ref), row: row(node),
            message: path(of: ref),
            mutations: record([put(node.id)].compactMap { $0 }))
    }

    static func view(_ spec: [String], title: String) throws -> CatalogView {
        guard let kind = spec.first?.lowercased() else { return .branch }
        let rest = Array(spec.dropFirst())
        switch kind {
        case "branch": return .branch
        case "tabs": return .tabs(rest.isEmpty ? ["View One", "View Two"] : rest)
        case "image":
            guard rest.count <= 1 else { throw TabulaError(.syntax, "an image leaf takes one image name") }
            return .image(rest.first ?? "Image.jpg")
        case "text": return .text(rest.isEmpty ? title : rest.joined(separator: " "))
        default:
            throw TabulaError(.invalid, "unknown view '\(spec[0])'; use tabs, image or text (or nothing for a branch)")
        }
    }

    mutating func set(_ id: Int, _ fields: [FieldAssignment]) throws -> Outcome {
        guard var node = nodes[id] else { throw TabulaError(.notFound, "no catalog node") }
        let p = path(of: CatalogList.ref(id))
        for f in fields {
            switch (f.field, node.view) {
            case ("title", _):
                node.title = try Title.checked(f.value, of: p)
                if let twin = child(of: node.parent, titled: node.title), twin != id {
                    throw TabulaError(
                        .exists,
                        "another node under \(path(of: CatalogList.ref(node.parent))) is titled \(node.title) already; pick another title (siblings never share a title)"
                    )
                }
            case ("image", .image): node.view = .image(try Title.checked(f.value, of: "an image"))
            case ("text", .text): node.view = .text(f.value)
            case ("tabs", .tabs):
                let tabs = f.value.split(separator: ",").map {
                    String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
                }.filter { !Title.isBlank($0) }
                guard !tabs.isEmpty else {
                    throw TabulaError(
                        .invalid,
                        "a tabs leaf needs at least one tab; give names separated by commas, e.g. tabs=\"One, Two\"")
                }
                node.view = .tabs(tabs)
            default:
                throw TabulaError(
                    .invalid,
                    "\(p) has no field '\(f.field)'; it has title"
                        + (node.view == .branch ? "" : " and \(node.view.kind)"))
            }
        }
        guard let old = nodes[id], node != old else { return .unchanged(p, rows: [row(node)]) }
        unindex(old)
        nodes[id] = node
        index(node)
        return .changed(.set, path: p, row: row(node), message: p, mutations: record([put(id)].compactMap { $0 }))
    }

    mutating func remove(_ id: Int) throws -> Outcome {
        let p = path(of: CatalogList.ref(id))
        guard let node = nodes[id] else { throw TabulaError(.notFound, "no \(p)") }
        var doomed: [Int] = []
        var stack = [id]
        while let n = stack.popLast() {
            doomed.append(n)
            stack += childIds(of: n)
        }
        // Only the top node leaves its parent's children; the rest go with their parents
        // (one step each, however wide the subtree). Its siblings keep their keys (a gap is
        // left), so none is stored again.
        unlink(id)
        for n in doomed.dropFirst() { forget(n) }
        let muts = record(doomed.map { Mutation(CatalogCodec.table, .delete(.int(Int64($0)))) })
        return .removed(
            p, title: node.title, message: "removed \(p) (\(doomed.count) \(plural(doomed.count, "node")))",
            mutations: muts)
    }
}
