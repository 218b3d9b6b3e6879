import TabulaProtocol

/// One line of the live view, drawn from its copy of a list: a section's header, a
/// section's "No Items", an entry's row, or a line of an entry's detail.
public struct LiveLine: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case header, empty, entry, detail
    }

    /// What names the line's thing, kept across changes: an entry's path, `section NAME`,
    /// `option N` (1-based), `field N`. The cursor follows it (`LiveCursor`).
    public var key: String
    public var text: String
    public var kind: Kind
    /// The entry (or the section header) as the list shows it; `.null` for other lines.
    public var value: JSONValue = .null
    /// The entry's revision, for `IF REV` (0 for other lines).
    public var rev: UInt64 = 0

    public init(key: String, text: String, kind: Kind, value: JSONValue = .null, rev: UInt64 = 0) {
        self.key = key
        self.text = text
        self.kind = kind
        self.value = value
        self.rev = rev
    }

    /// The entry's path, for an entry's line.
    public var path: String? { kind == .entry ? key : nil }
}

/// How the live view draws its copy of a list (`ListReplica`), and an entry's detail: from
/// the rows' JSON, as `LS` shows them. Item rows put ★ first (so a narrow screen cuts the
/// serial, never the star or the id) with their id, name and price in aligned columns (a
/// name wider than 32 characters is cut with …). Pure, so it is tested alone.
public enum LiveRow {
    /// The lines of `replica`: every section (or only `section`), with only the favourites
    /// when `favoritesOnly` (a section's header then counts those).
    public static func lines(of replica: ListReplica, section: String? = nil, favoritesOnly: Bool = false) -> [LiveLine]
    {
        var out: [LiveLine] = []
        for s in replica.sections where section == nil || s.name == section {
            let shown = favoritesOnly ? s.entries.filter { $0.value["favorite"] == .bool(true) } : s.entries
            if let header = s.header {
                out.append(
                    LiveLine(
                        key: "section \(s.name ?? "")",
                        text: headerText(header, count: shown.count, favorites: favoritesOnly), kind: .header,
                        value: header))
                if shown.isEmpty { out.append(LiveLine(key: "empty \(s.name ?? "")", text: "No Items", kind: .empty)) }
            }
            for e in shown {
                out.append(LiveLine(key: e.path, text: text(of: e), kind: .entry, value: e.value, rev: e.rev))
            }
        }
        return aligned(out)
    }

    /// `== Cheap Items (< $50): 2 items`.
    static func headerText(_ header: JSONValue, count: Int, favorites: Bool) -> String {
        let title = header["title"]?.stringValue ?? header["name"]?.stringValue ?? ""
        let range = header["range"]?.stringValue.map { " (\($0))" } ?? ""
        let noun = favorites ? (count == 1 ? "favourite" : "favourites") : (count == 1 ? "item" : "items")
        return "\(RowMarks.sectionHeader)\(title)\(range): \(count) \(noun)"
    }

    /// An entry's row: `my-int/  My Int: 16`, `item-1/  Item 1  (2 children)`,
    /// `item-3  Item 3  [text]`, `pizza/  Pizza  (3 entries)`, `margherita  Margherita`,
    /// `7  Margherita  /menu/pizza/margherita  2026-…`, `settings/  2`; an item's parts are
    /// joined by `aligned`.
    static func text(of e: ListReplica.Entry) -> String {
        let v = e.value
        let name = v["name"].map(plain) ?? String(e.path.split(separator: "/").last ?? "")
        let title = v["title"].map(plain) ?? name
        switch v["type"]?.stringValue {
        case "item": return ""
        case "node" where v["view"]?.stringValue == "branch":
            return "\(name)/  \(title)  (\(v["children"].map(plain) ?? "0") children)"
        case "node": return "\(name)  \(title)  [\(v["view"].map(plain) ?? "")]"
        case "menu-section": return "\(name)/  \(title)  (\(v["entries"].map(plain) ?? "0") entries)"
        case "menu-entry": return "\(name)  \(title)"
        case "order":
            return
                "\(v["id"].map(plain) ?? "")  \(title)  \(v["entry"].map(plain) ?? "")  \(v["created"].map(plain) ?? "")"
        default:
            if let row = v["row"]?.stringValue { return "\(name)/  \(row)" }  // a setting
            if let count = v["count"] { return "\(name)/  \(plain(count))" }  // a list at /
            return name
        }
    }

    /// Item lines in aligned columns; every other line as it is.
    static func aligned(_ lines: [LiveLine]) -> [LiveLine] {
        let items = lines.map { $0.value["type"]?.stringValue == "item" && $0.kind == .entry ? $0.value : nil }
        let ids = items.map { $0?["id"].map(plain) ?? "" }
        let names = items.map { $0?["name"].map(plain) ?? "" }
        let values = items.map { $0.map { "$" + ($0["value"].map(plain) ?? "") } ?? "" }
        let idWidth = ids.map(\.count).max() ?? 0
        let nameWidth = min(32, names.map(\.count).max() ?? 0)
        let valueWidth = values.map(\.count).max() ?? 0
        return lines.indices.map { i in
            guard let item = items[i] else { return lines[i] }
            var line = lines[i]
            let name = names[i].count > nameWidth ? String(names[i].prefix(nameWidth - 1)) + "…" : names[i]
            let star = item["favorite"] == .bool(true) ? "★ " : "  "
            let serial = item["serial"].map { "  serial=" + plain($0) } ?? ""
            line.text =
                star + pad(ids[i], idWidth, left: true) + "  " + pad(name, nameWidth) + "  "
                + pad(values[i], valueWidth, left: true) + serial
            return line
        }
    }

    /// What an entry shows when opened: a setting's options with the selected one marked
    /// (`[x] #2  16`); a catalog leaf as its kind (its title, then `[ View One ]  View Two`
    /// and the chosen tab's label, an image's name as its caption, or its text wrapped to
    /// `width`); anything else as its fields, one per line.
    public static func detail(of e: ListReplica.Entry, width: Int, tab: Int = 0) -> [LiveLine] {
        let v = e.value
        if let options = v["options"]?.arrayValue {
            let selected = v["selected"]?.intValue ?? 0
            return options.enumerated().map { i, o in
                LiveLine(
                    key: "option \(i + 1)", text: "[\(Int64(i + 1) == selected ? "x" : " ")] #\(i + 1)  \(plain(o))",
                    kind: .detail, value: v, rev: e.rev)
            }
        }
        var texts: [String]
        switch v["view"]?.stringValue {
        case "tabs":
            let tabs = v["tabs"]?.arrayValue?.map(plain) ?? []
            let chosen = tabs.isEmpty ? 0 : tab % tabs.count
            texts =
                [
                    tabs.enumerated().map { $0.offset == chosen ? "[ \($0.element) ]" : $0.element }.joined(
                        separator: "  "), "",
                ] + (tabs.isEmpty ? [] : [tabs[chosen]])
        case "image": texts = ["▣ " + (v["image"].map(plain) ?? "")]
        case "text": texts = wrap(v["text"].map(plain) ?? "", width: width)
        default:
            guard case .object(let pairs) = v.resolved else { return [] }
            texts = pairs.map { "\($0.0): \(plain($0.1))" }
        }
        if v["view"] != nil { texts = [v["title"].map(plain) ?? "", ""] + texts }
        return texts.enumerated().map {
            LiveLine(key: "field \($0.offset)", text: $0.element, kind: .detail, value: v, rev: e.rev)
        }
    }

    /// `text` in lines of at most `width` characters, broken at spaces where there are any.
    static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(10, width)
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
            while line.count > width {
                lines.append(String(line.prefix(width)))
                line = String(line.dropFirst(width))
            }
        }
        return lines + [line]
    }

    /// A value as text: a string as it is, numbers as written, lists joined by `, `.
    static func plain(_ v: JSONValue) -> String {
        switch v.resolved {
        case .null: return ""
        case .bool(let b): return b ? "yes" : "no"
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .string(let s): return s
        case .array(let a): return a.map(plain).joined(separator: ", ")
        case .object, .deferred: return v.jsonText
        }
    }

    private static func pad(_ s: String, _ width: Int, left: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - s.count))
        return left ? fill + s : s + fill
    }
}
