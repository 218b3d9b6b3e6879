/// How `/menu` is stored: its sections and entries, each table written whole (it is small).
enum MenuCodec {
    static let sectionsTable = "menu_sections"
    static let entriesTable = "menu_entries"
    static let schema = ListSchema(tables: [
        TableSchema(
            sectionsTable, columns: [("position", "INTEGER"), ("slug", "TEXT"), ("title", "TEXT")],
            loadOrder: "position", whole: true),
        TableSchema(
            entriesTable,
            columns: [("section", "INTEGER"), ("position", "INTEGER"), ("slug", "TEXT"), ("title", "TEXT")],
            keyColumns: 2, loadOrder: "section, position", whole: true),
    ])

    /// The whole menu: both tables replaced.
    static func whole(_ sections: [MenuSection]) -> [Mutation] {
        let rows: [[StoredValue]] = sections.enumerated().map {
            [.int(Int64($0.offset)), .text($0.element.slug), .text($0.element.title)]
        }
        var entries: [[StoredValue]] = []
        for (s, section) in sections.enumerated() {
            for (e, entry) in section.entries.enumerated() {
                entries.append([.int(Int64(s)), .int(Int64(e)), .text(entry.slug), .text(entry.title)])
            }
        }
        return [Mutation(sectionsTable, .replaceAll(rows)), Mutation(entriesTable, .replaceAll(entries))]
    }
}

/// Storage of `/menu`.
extension MenuList {
    public static var schema: ListSchema { MenuCodec.schema }

    public mutating func apply(_ m: Mutation) {
        guard case .replaceAll(let rows) = m.change else { return }
        switch m.table {
        case MenuCodec.sectionsTable:
            sections = rows.filter { $0.count == 3 }.map {
                MenuSection(slug: $0[1].text, title: $0[2].text, entries: [])
            }
        case MenuCodec.entriesTable:
            for s in sections.indices { sections[s].entries = [] }
            for r in rows where r.count == 4 && sections.indices.contains(r[0].int) {
                sections[r[0].int].entries.append(MenuEntry(slug: r[2].text, title: r[3].text))
            }
        default:
            break
        }
    }

    public func snapshot() -> [Mutation] { MenuCodec.whole(sections) }
}
