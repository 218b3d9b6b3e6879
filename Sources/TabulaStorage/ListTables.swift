import TabulaModel

/// A store's statements for every list's tables, made once from the lists' schemas (each
/// store kind makes its own `Table` from a `TableSchema`).
struct ListTables<Table> {
    /// Tables by name.
    let byName: [String: Table]
    /// Every list's tables in load order, and its counters.
    let lists: [(tables: [Table], counters: [String])]

    init(_ registered: [any ListStore.Type], _ make: (TableSchema) -> Table) {
        var all: [String: Table] = [:]
        var lists: [(tables: [Table], counters: [String])] = []
        for list in registered {
            let tables = list.schema.tables.map(make)
            for (s, t) in zip(list.schema.tables, tables) { all[s.name] = t }
            lists.append((tables, list.schema.counters))
        }
        byName = all
        self.lists = lists
    }
}
