import TabulaProtocol

/// How `/catalog` is stored: a row per node with its parent and its order among its siblings
/// (`position`: the node's `key`, ascending among siblings, with gaps where nodes went); a
/// leaf's detail as JSON.
enum CatalogCodec {
    static let table = "catalog"
    static let schema = ListSchema(tables: [
        TableSchema(
            table,
            columns: [
                ("id", "INTEGER"), ("parent", "INTEGER"), ("position", "INTEGER"), ("slug", "TEXT"), ("title", "TEXT"),
                ("view", "TEXT"), ("detail", "TEXT"),
            ], loadOrder: "parent, position")
    ])

    /// A node's row, encoded when read.
    struct Row: StoredRow {
        let node: CatalogNode

        var key: StoredValue { .int(Int64(node.id)) }

        var values: [StoredValue] {
            let n = node
            let detail: JSONValue
            switch n.view {
            case .branch: detail = .null
            case .tabs(let t): detail = .array(t.map { .string($0) })
            case .image(let i): detail = .string(i)
            case .text(let t): detail = .string(t)
            }
            return [
                .int(Int64(n.id)), .int(Int64(n.parent)), .int(Int64(n.key)), .text(n.slug), .text(n.title),
                .text(n.view.kind), .text(detail.jsonText),
            ]
        }
    }

    static func put(_ n: CatalogNode) -> Mutation { Mutation(table, .put(Row(node: n))) }

    static func decode(_ row: any StoredRow) -> CatalogNode? {
        if let own = row as? Row { return own.node }
        let r = row.values
        guard r.count == 7 else { return nil }
        let detail = JSONParser.parse(r[6].text)
        let view: CatalogView
        switch r[5].text {
        case "tabs": view = .tabs(detail?.arrayValue?.compactMap(\.stringValue) ?? [])
        case "image": view = .image(detail?.stringValue ?? "")
        case "text": view = .text(detail?.stringValue ?? "")
        default: view = .branch
        }
        return CatalogNode(id: r[0].int, parent: r[1].int, slug: r[3].text, title: r[4].text, view: view, key: r[2].int)
    }
}

/// Storage of `/catalog`.
extension CatalogList {
    public static var schema: ListSchema { CatalogCodec.schema }

    public mutating func apply(_ m: Mutation) {
        switch m.change {
        case .put(let r):
            guard var node = CatalogCodec.decode(r), node.id != 0 else { return }
            nextId = max(nextId, node.id + 1)
            guard let old = nodes[node.id] else { return link(node) }
            unindex(old)
            if old.parent == node.parent && old.key == node.key {  // changed in place: its place stays
                node.handle = old.handle
                nodes[node.id] = node
                index(node)
            } else {  // moved among its siblings: out of the old place, into the new (its own children stay)
                if old.handle >= 0 { children[old.parent]?.remove(old.handle) }
                link(node)
            }
        case .delete(let id):
            guard id.int != 0 else { return }
            unlink(id.int)
        case .replaceAll, .counter:
            break
        }
    }

    public func snapshot() -> [Mutation] {
        // Parents before children, siblings in order: what `apply` needs to rebuild the tree.
        var out: [Mutation] = []
        var queue = childIds(of: 0)
        var i = 0
        while i < queue.count {
            if let m = put(queue[i]) { out.append(m) }
            queue += childIds(of: queue[i])
            i += 1
        }
        return out
    }
}
