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
        var all: [String: Table] = [:]
        var lists: [(tables: [Table], counters: [String])] = []
        for list in registered {
            let tables = list.schema.tables.map(PostgresTables.table)
            for t in tables { all[t.schema.name] = t }
            lists.append((tables, list.schema.counters))
        }
        self.tables = all
        self.lists = lists
    }

    static func table(_ s: TableSchema) -> Table {
        let names = s.columns.map(\.name)
        let defs = s.columns.map { "\($0.name) \(sqlType($0.type)) NOT NULL" }.joined(separator: ", ")
        return Table(
            schema: s,
            create: "CREATE TABLE IF NOT EXISTS \(s.name)(\(defs), PRIMARY KEY(\(names.prefix(s.keyColumns).joined(separator: ", "))))",
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

    /// The SQL that writes one mutation (ends in a semicolon).
    func sql(_ m: Mutation) throws -> String {
        if case .counter(let v) = m.change {
            return "INSERT INTO tabula_meta(key, value) VALUES (\(PGConnection.literal(m.table)), \(v)) ON CONFLICT(key) DO UPDATE SET value = greatest(tabula_meta.value, excluded.value);"
        }
        guard let t = tables[m.table] else { throw StorageError("no table \(m.table) in this store; this tabulad does not know that list") }
        let keys = t.schema.columns.prefix(t.schema.keyColumns).map(\.name)
        let rest = t.schema.columns.dropFirst(t.schema.keyColumns).map(\.name)
        let upsert = rest.isEmpty ? "DO NOTHING" : "DO UPDATE SET " + rest.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        func insert(_ rows: [[StoredValue]]) -> String {
            guard !rows.isEmpty else { return "" }
            let values = rows.map { "(" + $0.map(PostgresTables.literal).joined(separator: ", ") + ")" }.joined(separator: ", ")
            return "INSERT INTO \(t.schema.name)(\(t.columns)) VALUES \(values) ON CONFLICT(\(keys.joined(separator: ", "))) \(upsert);"
        }
        switch m.change {
        case .put(let row): return insert([row.values])
        case .delete(let key): return "DELETE FROM \(t.schema.name) WHERE \(t.schema.columns[0].name) = \(PostgresTables.literal(key));"
        case .replaceAll(let rows): return "DELETE FROM \(t.schema.name);" + insert(rows)
        case .counter: return ""
        }
    }

    /// A value as an SQL literal.
    static func literal(_ v: StoredValue) -> String {
        switch v {
        case .int(let n): return String(n)
        case .double(let d): return d.isFinite ? "\(d)::double precision" : "'\(d > 0 ? "Infinity" : d < 0 ? "-Infinity" : "NaN")'::double precision"
        case .text(let s): return PGConnection.literal(s)
        }
    }

    /// Every stored row and counter, as mutations that rebuild the lists from empty (`db` is
    /// in a transaction that sees one snapshot).
    func load(from db: PGConnection) throws -> [Mutation] {
        var out: [Mutation] = []
        for list in lists {
            for t in list.tables {
                let r = try db.exec(t.select)
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
                if t.schema.whole { out.append(Mutation(t.schema.name, .replaceAll(rows))) } else { out += rows.map { Mutation(t.schema.name, .put($0)) } }
            }
            for c in list.counters {
                let r = try db.exec("SELECT value FROM tabula_meta WHERE key = $1", [c])
                if r.count > 0 { out.append(Mutation(c, .counter(r.int(0, 0)))) }
            }
        }
        return out
    }
}
