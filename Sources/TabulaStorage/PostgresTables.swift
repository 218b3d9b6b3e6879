import Foundation
import TabulaModel

/// The SQL for every list's tables in PostgreSQL, made from their schemas as `SQLiteTables`
/// does for SQLite. Writes are SQL text with quoted literals, so that one commit is one round
/// trip however many rows it writes.
struct PostgresTables {
    struct Table {
        let schema: TableSchema
        let create: String
        let columns: String
        let select: String
    }

    let tables: [String: Table]
    let lists: [(tables: [Table], counters: [String])]

    init(_ registered: [any ListStore.Type] = Model.registered) {
        let made = ListTables(registered, PostgresTables.table)
        (tables, lists) = (made.byName, made.lists)
    }

    static func table(_ s: TableSchema) -> Table {
        let names = s.columns.map(\.name)
        let defs = s.columns.map { "\($0.name) \(sqlType($0.type)) NOT NULL" }.joined(separator: ", ")
        return Table(
            schema: s,
            create:
                "CREATE TABLE IF NOT EXISTS \(s.name)(\(defs), PRIMARY KEY(\(names.prefix(s.keyColumns).joined(separator: ", "))))",
            columns: names.joined(separator: ", "),
            select: "SELECT \(names.joined(separator: ", ")) FROM \(s.name) ORDER BY \(s.loadOrder)")
    }

    static func sqlType(_ t: String) -> String {
        switch t {
        case "INTEGER": return "bigint"
        case "REAL": return "double precision"
        default: return "text"
        }
    }

    /// Every table's CREATE statement.
    var creates: [String] { tables.values.sorted { $0.schema.name < $1.schema.name }.map(\.create) }

    /// Appends the SQL that writes a batch's mutations in few statements: the puts to one
    /// table between its deletes become one multi-row upsert (a key put twice keeps its last
    /// row), and each counter is raised once, to its highest value.
    func sql(_ mutations: [Mutation], into out: inout SQLText) throws {
        var pending: [String: (keys: [[StoredValue]: Int], rows: [[StoredValue]])] = [:]
        var counters: [String: Int64] = [:]
        func flush(_ table: String) throws {
            guard let p = pending.removeValue(forKey: table), !p.rows.isEmpty else { return }
            try upsert(table, p.rows, into: &out)
        }
        for m in mutations {
            switch m.change {
            case .counter(let v): counters[m.table] = max(counters[m.table] ?? v, v)
            case .put(let row):
                let values = row.values
                let key = Array(values.prefix(try table(m.table).schema.keyColumns))
                var p = pending.removeValue(forKey: m.table) ?? ([:], [])
                if let i = p.keys[key] {
                    p.rows[i] = values
                } else {
                    p.keys[key] = p.rows.count
                    p.rows.append(values)
                }
                pending[m.table] = p
            case .delete(let key):
                try flush(m.table)
                let t = try table(m.table)
                out.raw("DELETE FROM \(t.schema.name) WHERE \(t.schema.columns[0].name) = ")
                out.value(key)
                out.raw(";")
            case .replaceAll(let rows):
                try flush(m.table)
                out.raw("DELETE FROM \(try table(m.table).schema.name);")
                try upsert(m.table, rows, into: &out)
            }
        }
        for table in pending.keys.sorted() { try flush(table) }
        for (name, v) in counters.sorted(by: { $0.key < $1.key }) {
            out.raw("INSERT INTO tabula_meta(key, value) VALUES (")
            out.literal(name)
            out.raw(", \(v)) ON CONFLICT(key) DO UPDATE SET value = greatest(tabula_meta.value, excluded.value);")
        }
    }

    /// The SQL of `mutations`, as text.
    func sql(_ mutations: [Mutation]) throws -> String {
        var out = SQLText()
        try sql(mutations, into: &out)
        return out.string
    }

    private func table(_ name: String) throws -> Table {
        guard let t = tables[name] else {
            throw StorageError("no table \(name) in this store; this tabulad does not know that list")
        }
        return t
    }

    /// One multi-row `INSERT … ON CONFLICT DO UPDATE` (keys must be distinct).
    private func upsert(_ name: String, _ rows: [[StoredValue]], into out: inout SQLText) throws {
        guard !rows.isEmpty else { return }
        let t = try table(name)
        let keys = t.schema.columns.prefix(t.schema.keyColumns).map(\.name)
        let rest = t.schema.columns.dropFirst(t.schema.keyColumns).map(\.name)
        out.raw("INSERT INTO \(t.schema.name)(\(t.columns)) VALUES ")
        for (i, row) in rows.enumerated() {
            out.raw(i == 0 ? "(" : ", (")
            for (j, v) in row.enumerated() {
                if j > 0 { out.raw(", ") }
                out.value(v)
            }
            out.raw(")")
        }
        out.raw(" ON CONFLICT(\(keys.joined(separator: ", "))) ")
        out.raw(
            rest.isEmpty
                ? "DO NOTHING;" : "DO UPDATE SET " + rest.map { "\($0) = excluded.\($0)" }.joined(separator: ", ") + ";"
        )
    }

    /// Every stored row and counter, as mutations that rebuild the lists from empty (`db` is
    /// in a transaction that sees one snapshot).
    func load(from db: PGConnection) throws -> [Mutation] {
        var out: [Mutation] = []
        for list in lists {
            for t in list.tables {
                let r = try db.exec(t.select, timeout: 120)  // a whole table: allow for a big one
                let types = t.schema.columns.map(\.type)
                let rows: [[StoredValue]] = (0..<r.count).map { i in
                    types.indices.map { j in
                        let text = r.text(i, j) ?? ""
                        switch types[j] {
                        case "INTEGER": return .int(Int64(text) ?? 0)
                        case "REAL": return .double(Double(text) ?? 0)
                        default: return .text(text)
                        }
                    }
                }
                if t.schema.whole {
                    out.append(Mutation(t.schema.name, .replaceAll(rows)))
                } else {
                    out += rows.map { Mutation(t.schema.name, .put($0)) }
                }
            }
            for c in list.counters {
                let r = try db.exec("SELECT value FROM tabula_meta WHERE key = $1", [c])
                if r.count > 0 { out.append(Mutation(c, .counter(r.int(0, 0)))) }
            }
        }
        return out
    }
}
