import TabulaProtocol

/// What the live view reads from its rows' text (the server's LS rows, as `tabula` prints
/// them without the `- `), and how it draws them: pure, so it is tested alone.
public enum LiveRow {
    /// `[ ] #2  16` → 2: an option of a setting.
    public static func option(_ row: String) -> Int? {
        guard row.hasPrefix("[ ] #") || row.hasPrefix("[x] #") else { return nil }
        return Int(row.dropFirst(5).prefix { $0.isNumber })
    }

    /// `5  Red Chair  $42 …` → 5: an item.
    public static func itemID(_ row: String) -> Int? {
        guard let first = row.split(separator: " ", maxSplits: 1).first else { return nil }
        return Int(first)
    }

    /// The 1-based position of the item at `index` among the items of its section (the rows
    /// since the last section header).
    public static func position(of index: Int, in rows: [String]) -> Int? {
        guard index < rows.count, itemID(rows[index]) != nil else { return nil }
        var n = 0
        for i in stride(from: index, through: 0, by: -1) {
            if rows[i].hasPrefix(RowMarks.sectionHeader) { break }
            if itemID(rows[i]) != nil { n += 1 }
        }
        return n
    }

    /// An item row's parts: `5  Red  Chair  $42  serial=…  ★` → (5, "Red  Chair", "$42",
    /// "serial=…", true). Nil for a row that is not an item's.
    public static func item(_ row: String) -> (id: String, name: String, value: String, rest: String, favorite: Bool)? {
        var parts = row.components(separatedBy: "  ")
        guard parts.count >= 3, Int(parts[0]) != nil else { return nil }
        let favorite = parts.last == RowMarks.favorite
        if favorite { parts.removeLast() }
        guard let v = parts.indices.dropFirst(2).first(where: { parts[$0].hasPrefix("$") && Int(parts[$0].dropFirst()) != nil }) else { return nil }
        return (parts[0], parts[1..<v].joined(separator: "  "), parts[v], parts[(v + 1)...].joined(separator: "  "), favorite)
    }

    /// The rows as the view draws them, one for one: item rows with ★ first (so a narrow
    /// screen cuts the serial, never the star or the id) and their id, name and price in
    /// aligned columns (a name wider than 32 characters is cut with …); a leaf's fields as
    /// its kind shows them; every other row as it is.
    public static func display(_ rows: [String]) -> [String] {
        let items = rows.map(item)
        let idWidth = items.compactMap { $0?.id.count }.max() ?? 0
        let nameWidth = min(32, items.compactMap { $0?.name.count }.max() ?? 0)
        let valueWidth = items.compactMap { $0?.value.count }.max() ?? 0
        let isLeaf = rows.contains { $0.hasPrefix("view: ") } && rows.first?.hasPrefix("title: ") == true
        return zip(rows, items).map { row, parts in
            if let p = parts {
                let name = p.name.count > nameWidth ? String(p.name.prefix(nameWidth - 1)) + "…" : p.name
                return (p.favorite ? "★ " : "  ") + pad(p.id, idWidth, left: true) + "  " + pad(name, nameWidth) + "  " + pad(p.value, valueWidth, left: true) + "  " + p.rest
            }
            return isLeaf ? leafLine(row) : row
        }
    }

    /// A leaf's field as its kind shows it: the title, `[ View One ]  View Two` for tabs, the
    /// image's name as its caption, the text itself.
    static func leafLine(_ row: String) -> String {
        guard let colon = row.range(of: ": ") else { return row }
        let value = String(row[colon.upperBound...])
        switch row[..<colon.lowerBound] {
        case "title": return value
        case "view": return "(\(value) view)"
        case "tabs":
            let tabs = value.components(separatedBy: ", ")
            return tabs.enumerated().map { $0.offset == 0 ? "[ \($0.element) ]" : $0.element }.joined(separator: "  ")
        case "image": return "▣ " + value
        case "text": return value
        default: return row
        }
    }

    private static func pad(_ s: String, _ width: Int, left: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - s.count))
        return left ? fill + s : s + fill
    }
}
