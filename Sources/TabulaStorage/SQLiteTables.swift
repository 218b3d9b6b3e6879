import TabulaModel

/// The generic SQL for every list's tables, made once from their schemas: the SQLite store
/// writes and loads any list through this, without knowing what the list holds.
struct SQLiteTables {
    struct Table {
        let schema: TableSchema
        let create: String
        /// `INSERT OR REPLACE`, of one row or many.
        let put: SQLiteRowsInsert
        let delete: String
        let clear: String
        let select: String
    }

    /// Tables by name.
    let tables: [String: Table]
    /// The tables keyed by one column (see `LastWrites`).
    let singleKey: Set<String>
    /// Every list's tables in load order, and its counters.
    let lists: [(tables: [Table], counters: [String])]

    init(_ registered: [any ListStore.Type] = Model.registered) {
        let made = ListTables(registered, SQLiteTables.table)
        (tables, lists) = (made.byName, made.lists)
        singleKey = Set(made.byName.values.filter { $0.schema.keyColumns == 1 }.map(\.schema.name))
    }

    static func table(_ s: TableSchema) -> Table {
        let names = s.columns.map(\.name)
        let defs = s.columns.map { "\($0.name) \($0.type) NOT NULL" }.joined(separator: ", ")
        let key = names.prefix(s.keyColumns).joined(separator: ", ")
        // A key other than one INTEGER column (SQLite's rowid then) is the table's own b-tree
        // (see migration 3): one page a row's write, not a table's and an index's.
        let rowid = s.keyColumns == 1 && s.columns[0].type == "INTEGER"
        return Table(
            schema: s,
            create:
                "CREATE TABLE IF NOT EXISTS \(s.name)(\(defs), PRIMARY KEY(\(key)))\(rowid ? "" : " WITHOUT ROWID")",
            put: SQLiteRowsInsert(
                "INSERT OR REPLACE INTO \(s.name)(\(names.joined(separator: ", "))) VALUES ", columns: names.count),
            delete: "DELETE FROM \(s.name) WHERE \(names[0]) = ?",
            clear: "DELETE FROM \(s.name)",
            select: "SELECT \(names.joined(separator: ", ")) FROM \(s.name) ORDER BY \(s.loadOrder)")
    }

    /// Creates the tables a list added since the file was made.
    func createMissing(in db: SQLiteDatabase) throws {
        for t in tables.values.sorted(by: { $0.schema.name < $1.schema.name }) { try db.exec(t.create) }
    }

    /// Writes mutations in order, each run of puts to one table as one insert of its rows.
    /// Counters (rows of `meta`, only ever raised) are raised last, each once to its highest
    /// value: between a list's puts (an id counter after each new row) they would cut its runs.
    func write(_ mutations: [Mutation], to db: SQLiteDatabase) throws {
        var counters: [(name: String, value: Int64)] = []
        var rows: [Mutation] = []
        rows.reserveCapacity(mutations.count)
        for m in mutations {
            guard case .counter(let v) = m.change else {
                rows.append(m)
                continue
            }
            if let k = counters.firstIndex(where: { $0.name == m.table }) {
                counters[k].value = max(counters[k].value, v)
            } else {
                counters.append((m.table, v))
            }
        }
        var i = 0
        while i < rows.count {
            let m = rows[i]
            guard case .put = m.change else {
                try write(m, to: db)
                i += 1
                continue
            }
            var end = i + 1
            while end < rows.count, rows[end].table == m.table, case .put = rows[end].change { end += 1 }
            let first = i
            try table(m.table).put.run(end - i, in: db) { k, values in
                if case .put(let row) = rows[first + k].change { values += row.values.map(SQLiteTables.bind) }
            }
            i = end
        }
        for c in counters { try write(Mutation(c.name, .counter(c.value)), to: db) }
    }

    private func table(_ name: String) throws -> Table {
        guard let t = tables[name] else {
            throw StorageError("no table \(name) in this store; this tabulad does not know that list")
        }
        return t
    }

    /// Writes one mutation.
    private func write(_ m: Mutation, to db: SQLiteDatabase) throws {
        if case .counter(let v) = m.change {
            try db.run(
                "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = max(value, excluded.value)",
                [.text(m.table), .int(v)])
            return
        }
        let t = try table(m.table)
        switch m.change {
        case .put(let row): try t.put.run(1, in: db) { _, values in values += row.values.map(SQLiteTables.bind) }
        case .delete(let key): try db.run(t.delete, [SQLiteTables.bind(key)])
        case .replaceAll(let rows):
            try db.run(t.clear)
            try t.put.run(rows.count, in: db) { k, values in values += rows[k].map(SQLiteTables.bind) }
        case .counter: break
        }
    }

    /// Every stored row and counter, as mutations that rebuild the lists from empty.
    func load(from db: SQLiteDatabase) throws -> [Mutation] {
        var out: [Mutation] = []
        for list in lists {
            for t in list.tables {
                var rows: [[StoredValue]] = []
                try db.query(t.select) { r in
                    rows.append(
                        t.schema.columns.indices.map { i in
                            switch t.schema.columns[i].type {
                            case "INTEGER": return .int(r.int(Int32(i)))
                            case "REAL": return .double(r.double(Int32(i)))
                            default: return .text(r.text(Int32(i)))
                            }
                        })
                }
                if t.schema.whole {
                    out.append(Mutation(t.schema.name, .replaceAll(rows)))
                } else {
                    out += rows.map { Mutation(t.schema.name, .put($0)) }
                }
            }
            for c in list.counters {
                try db.query("SELECT value FROM meta WHERE key = ?", [.text(c)]) {
                    out.append(Mutation(c, .counter($0.int(0))))
                }
            }
        }
        return out
    }

    static func bind(_ v: StoredValue) -> SQLiteValue {
        switch v {
        case .int(let n): return .int(n)
        case .double(let d): return .double(d)
        case .text(let s): return .text(s)
        }
    }
}
