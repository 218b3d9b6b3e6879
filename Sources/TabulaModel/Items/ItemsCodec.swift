import TabulaProtocol

/// How `/items` is stored: the bands (written whole), a row per item with its ordering key,
/// and the next id.
enum ItemsCodec {
    static let table = "items"
    static let bandsTable = "bands"
    static let nextId = "next_item_id"
    static let schema = ListSchema(
        tables: [
            TableSchema(
                bandsTable, columns: [("position", "INTEGER"), ("title", "TEXT"), ("lower", "INTEGER")],
                loadOrder: "position", whole: true),
            TableSchema(
                table,
                columns: [
                    ("id", "INTEGER"), ("name", "TEXT"), ("value", "INTEGER"), ("serial", "TEXT"), ("created", "REAL"),
                    ("favorite", "INTEGER"), ("ord", "REAL"),
                ], loadOrder: "ord"),
        ], counters: [nextId])

    /// The item's row; with `counter`, also the next id past it (a new item).
    /// An item's row, encoded when read.
    struct Row: StoredRow {
        let item: Item

        var key: StoredValue { .int(Int64(item.id)) }

        var values: [StoredValue] {
            let it = item
            return [
                .int(Int64(it.id)), .text(it.name), .int(Int64(it.value)), .text(it.serial), .double(it.created),
                .int(it.favorite ? 1 : 0), .double(it.ord),
            ]
        }
    }

    static func put(_ it: Item, counter: Bool = false) -> [Mutation] {
        let m = Mutation(table, .put(Row(item: it)))
        return counter ? [m, Mutation(nextId, .counter(Int64(it.id + 1)))] : [m]
    }

    static func decode(_ row: any StoredRow) -> Item? {
        if let own = row as? Row { return own.item }
        let r = row.values
        guard r.count == 7 else { return nil }
        return Item(
            id: r[0].int, name: r[1].text, value: r[2].int, serial: r[3].text, created: r[4].double,
            favorite: r[5].int != 0, ord: r[6].double)
    }

    static func bands(_ bands: [Band]) -> Mutation {
        Mutation(
            bandsTable,
            .replaceAll(
                bands.enumerated().map {
                    [.int(Int64($0.offset)), .text($0.element.title), .int(Int64($0.element.lower))]
                }))
    }
}

/// Storage of `/items`.
extension ItemsList {
    public static var schema: ListSchema { ItemsCodec.schema }

    public mutating func apply(_ m: Mutation) {
        switch (m.table, m.change) {
        case (ItemsCodec.table, .put(let r)):
            if let item = ItemsCodec.decode(r) { items.put(item) }
        case (ItemsCodec.table, .delete(let id)):
            items.remove(id.int)
        case (ItemsCodec.bandsTable, .replaceAll(let rows)):
            let bands = rows.filter { $0.count == 3 }.map { Band(title: $0[1].text, lower: $0[2].int) }
            items.setBands(bands.isEmpty ? Band.defaults : bands)
        case (ItemsCodec.nextId, .counter(let next)):
            items.reserveIds(upTo: Int(next))
        default:
            break
        }
    }

    public func snapshot() -> [Mutation] {
        var out = [ItemsCodec.bands(items.bands)]
        out += items.all.sorted { $0.ord < $1.ord }.flatMap { ItemsCodec.put($0) }
        out.append(Mutation(ItemsCodec.nextId, .counter(Int64(items.nextId))))
        return out
    }
}
