import TabulaProtocol

/// How `/catalog` is stored: a row per node with its parent and position among its
/// siblings; a leaf's detail as JSON.
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
        let position: Int

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
                .int(Int64(n.id)), .int(Int64(n.parent)), .int(Int64(position)), .text(n.slug), .text(n.title),
                .text(n.view.kind), .text(detail.jsonText),
            ]
        }
    }

    static func put(_ n: CatalogNode, position: Int) -> Mutation {
        var bare = n
        bare.children = []
        return Mutation(table, .put(Row(node: bare, position: position)))
    }

    static func decode(_ row: any StoredRow) -> (CatalogNode, position: Int)? {
        if let own = row as? Row { return (own.node, own.position) }
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
        return (
            CatalogNode(id: r[0].int, parent: r[1].int, slug: r[3].text, title: r[4].text, view: view, children: []),
            r[2].int
        )
    }
}

/// Storage of `/catalog`.
extension CatalogList {
    public static var schema: ListSchema { CatalogCodec.schema }

    public mutating func apply(_ m: Mutation) {
        switch m.change {
        case .put(let r):
            guard let decoded = CatalogCodec.decode(r), decoded.0.id != 0 else { return }
            var (node, position) = decoded
            if let old = nodes[node.id] {
                node.children = old.children
                nodes[old.parent]?.children.removeAll { $0 == node.id }
                unindex(old)
            }
            link(node, at: position)
            nextId = max(nextId, node.id + 1)
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
        var queue = nodes[0]?.children ?? []
        var i = 0
        while i < queue.count {
            if let m = put(queue[i]) { out.append(m) }
            queue += nodes[queue[i]]?.children ?? []
            i += 1
        }
        return out
    }
}
