/// How `/orders` is stored: a row per order, and the next id (ids are never reused).
enum OrdersCodec {
    static let table = "orders"
    static let nextId = "next_order_id"
    static let schema = ListSchema(
        tables: [
            TableSchema(
                table, columns: [("id", "INTEGER"), ("entry", "TEXT"), ("title", "TEXT"), ("created", "REAL")],
                loadOrder: "id")
        ], counters: [nextId])

    /// An order's row, encoded when read.
    struct Row: StoredRow {
        let order: Order

        var key: StoredValue { .int(Int64(order.id)) }

        var values: [StoredValue] {
            [.int(Int64(order.id)), .text(order.entry), .text(order.title), .double(order.created)]
        }
    }

    static func put(_ o: Order) -> [Mutation] {
        [Mutation(table, .put(Row(order: o))), Mutation(nextId, .counter(Int64(o.id + 1)))]
    }

    static func decode(_ row: any StoredRow) -> Order? {
        if let own = row as? Row { return own.order }
        let r = row.values
        guard r.count == 4 else { return nil }
        return Order(id: r[0].int, entry: r[1].text, title: r[2].text, created: r[3].double)
    }
}

/// Storage of `/orders`.
extension OrdersList {
    public static var schema: ListSchema { OrdersCodec.schema }

    public mutating func apply(_ m: Mutation) {
        switch (m.table, m.change) {
        case (OrdersCodec.table, .put(let r)):
            guard let o = OrdersCodec.decode(r), orders.order(o.id) == nil else { return }
            orders.load([o])
        case (OrdersCodec.table, .delete(let id)):
            _ = orders.remove(id.int)
        case (OrdersCodec.table, .replaceAll):
            orders.clear()
        case (OrdersCodec.nextId, .counter(let next)):
            orders.reserveIds(upTo: Int(next))
        default:
            break
        }
    }

    public func snapshot() -> [Mutation] {
        orders.page(from: 0, limit: orders.count).flatMap { OrdersCodec.put($0) } + [
            Mutation(OrdersCodec.nextId, .counter(Int64(orders.nextId)))
        ]
    }
}
