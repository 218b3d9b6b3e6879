/// How `/orders` is stored: a row per order, and the next id (ids are never reused).
enum OrdersCodec {
    static let table = "orders"
    static let nextId = "next_order_id"
    static let schema = ListSchema(tables: [
        TableSchema(table, columns: [("id", "INTEGER"), ("entry", "TEXT"), ("title", "TEXT"), ("created", "REAL")], loadOrder: "id")
    ], counters: [nextId])

    static func put(_ o: Order) -> [Mutation] {
        [Mutation(table, .put([.int(Int64(o.id)), .text(o.entry), .text(o.title), .double(o.created)])), Mutation(nextId, .counter(Int64(o.id + 1)))]
    }
}

/// Storage of `/orders`.
extension OrdersList {
    public static var schema: ListSchema { OrdersCodec.schema }

    public mutating func apply(_ m: Mutation) {
        switch (m.table, m.change) {
        case (OrdersCodec.table, .put(let r)) where r.count == 4:
            guard orders.order(r[0].int) == nil else { return }
            orders.load([Order(id: r[0].int, entry: r[1].text, title: r[2].text, created: r[3].double)])
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
        orders.page(from: 0, limit: orders.count).flatMap { OrdersCodec.put($0) } + [Mutation(OrdersCodec.nextId, .counter(Int64(orders.nextId)))]
    }
}
