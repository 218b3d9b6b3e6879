import TabulaProtocol

/// `/menu` (seed 003): a static menu of sections and entries; ordering an entry appends it
/// to `/orders`.
public struct MenuList: ListStore {
    public static let name = "menu"
    /// Places: the list, a section (`a`: index), an entry (`a`: section, `b`: entry).
    static let section: UInt8 = 1, entry: UInt8 = 2

    /// The sections, in order.
    public internal(set) var sections: [MenuSection] = []

    public init() {}

    public var recordsMutations = true

    public func summary(seenBy viewer: Viewer) -> Row {
        let n = viewer.isRestricted ? sections.count { viewer.sees("/menu/\($0.slug)") } : sections.count
        return Row(
            text: "menu/  \(n) \(plural(n, "section"))",
            json: .object([("name", .string("menu")), ("count", .int(Int64(n)))]), path: RowPath("/", "menu"))
    }

    public func isList(_ ref: Ref) -> Bool { ref.kind != MenuList.entry }

    public func child(of ref: Ref, named name: String) -> Ref? {
        let lower = folded(name)
        switch ref.kind {
        case 0: return sections.firstIndex { $0.slug == lower }.map { Ref(MenuList.section, $0) }
        case MenuList.section:
            return sections[ref.a].entries.firstIndex { $0.slug == lower }.map { Ref(MenuList.entry, ref.a, $0) }
        default: return nil
        }
    }

    public func path(of ref: Ref) -> String {
        switch ref.kind {
        case 0: return "/menu"
        case MenuList.section: return "/menu/\(sections[ref.a].slug)"
        default: return "/menu/\(sections[ref.a].slug)/\(sections[ref.a].entries[ref.b].slug)"
        }
    }

    public func childNames(of ref: Ref, limit: Int) -> [(name: String, isList: Bool)] {
        switch ref.kind {
        case 0: return sections.prefix(limit).map { ($0.slug, true) }
        case MenuList.section: return sections[ref.a].entries.prefix(limit).map { ($0.slug, false) }
        default: return []
        }
    }

    /// Section `s`, its entries counted as `viewer` sees them.
    func sectionRow(_ s: Int, viewer: Viewer = Viewer()) -> Row {
        let slug = sections[s].slug
        let all = sections[s].entries.count
        let n =
            viewer.isRestricted
            ? ChildGrants(viewer.grants!, list: "/menu/\(slug)").shownCount(of: all) { n in
                sections[s].entries.contains { $0.slug == n }
            } : all
        return Row(
            text: "\(sections[s].slug)/  \(sections[s].title)  (\(n) \(plural(n, "entry", "entries")))",
            json: .object([
                ("type", .string("menu-section")), ("name", .string(sections[s].slug)),
                ("title", .string(sections[s].title)), ("entries", .int(Int64(n))),
            ]), path: RowPath("/menu", sections[s].slug))
    }

    func entryRow(_ s: Int, _ e: Int) -> Row {
        let entry = sections[s].entries[e]
        return Row(
            text: "\(entry.slug)  \(entry.title)",
            json: .object([
                ("type", .string("menu-entry")), ("name", .string(entry.slug)), ("title", .string(entry.title)),
                ("path", .string(path(of: Ref(MenuList.entry, s, e)))),
            ]), path: RowPath("/menu/" + sections[s].slug, entry.slug))
    }

    public func list(_ ref: Ref, limit: Int, after: String?, viewer: Viewer) throws -> Reply {
        switch ref.kind {
        case 0:
            return try pageReply(
                Array(sections.indices), path: "/menu", limit: limit, after: after, viewer: viewer,
                name: { sections[$0].slug }, row: { sectionRow($0, viewer: viewer) })
        case MenuList.section:
            let s = ref.a
            return try pageReply(
                Array(sections[s].entries.indices), path: path(of: ref), limit: limit, after: after, viewer: viewer,
                name: { sections[s].entries[$0].slug }, row: { entryRow(s, $0) })
        default: return try show(ref, viewer: viewer)
        }
    }

    public func completions(for verb: Verb, argument index: Int, at ref: Ref) -> [String] {
        verb == .set && index == 1 && ref.kind != 0 ? ["title="] : []
    }

    public func show(_ ref: Ref, viewer: Viewer) throws -> Reply {
        guard ref.kind == MenuList.entry else {
            return try list(ref, limit: Model.defaultPage, after: nil, viewer: viewer)
        }
        let p = path(of: ref)
        let section = sections[ref.a]
        let title = section.entries[ref.b].title
        return Reply(
            rows: [
                fieldRow("title", title, .string(title)), fieldRow("section", section.title, .string(section.slug)),
                fieldRow("order", "ORDER \(p)", .string(p)),
            ], message: p)
    }

    public func places(bareNamed name: String) -> [Ref] {
        let lower = name.lowercased()
        return sections.indices.flatMap { s in
            sections[s].entries.indices.filter { sections[s].entries[$0].slug == lower }.map {
                Ref(MenuList.entry, s, $0)
            }
        }
    }

    /// Each entry once: by its bare name where that is unique, else by its full path.
    public var bareNames: [String] {
        var count: [String: Int] = [:]
        for s in sections { for e in s.entries { count[e.slug, default: 0] += 1 } }
        return sections.indices.flatMap { s in
            sections[s].entries.indices.map { e in
                count[sections[s].entries[e].slug] == 1
                    ? sections[s].entries[e].slug : path(of: Ref(MenuList.entry, s, e))
            }
        }
    }

    public func orderLine(_ ref: Ref) -> (entry: String, title: String)? {
        guard ref.kind == MenuList.entry else { return nil }
        return (path(of: ref), sections[ref.a].entries[ref.b].title)
    }
}
