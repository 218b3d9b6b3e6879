import TabulaProtocol

/// Writes to `/menu`: sections and entries are added, retitled and removed; the menu is small
/// and stored whole.
extension MenuList {
    public mutating func write(_ w: Write, at ref: Ref, viewer: Viewer, now: Double, rng: inout SplitMix64) throws
        -> Outcome?
    {
        switch (w, ref.kind) {
        case (.add(let args), 0): return try addSection(args)
        case (.add(let args), MenuList.section): return try addEntry(ref.a, args)
        case (.set(let fields), MenuList.section): return try retitle(ref, fields)
        case (.set(let fields), MenuList.entry): return try retitle(ref, fields)
        case (.remove, MenuList.section):
            let p = path(of: ref)
            let gone = sections.remove(at: ref.a)
            return .removed(p, title: gone.title, mutations: record(MenuCodec.whole(sections)))
        case (.remove, MenuList.entry):
            let p = path(of: ref)
            let gone = sections[ref.a].entries.remove(at: ref.b)
            return .removed(p, title: gone.title, mutations: record(MenuCodec.whole(sections)))
        default: return nil
        }
    }

    mutating func addSection(_ args: [String]) throws -> Outcome {
        guard args.count == 1 else {
            throw TabulaError(.syntax, "ADD /menu takes one section title, e.g. ADD /menu Drinks")
        }
        let title = try Title.checked(args[0], of: "a menu section")
        let slug = Slug.make(title)
        guard !sections.contains(where: { $0.slug == slug }) else {
            throw TabulaError(.exists, "/menu/\(slug) exists already")
        }
        sections.append(MenuSection(slug: slug, title: title, entries: []))
        let ref = Ref(MenuList.section, sections.count - 1)
        return .changed(
            .add, path: path(of: ref), entry: (Model.menuIndex, ref), row: sectionRow(ref.a),
            message: path(of: ref), summary: title,
            mutations: record(MenuCodec.whole(sections)))
    }

    mutating func addEntry(_ s: Int, _ args: [String]) throws -> Outcome {
        let p = path(of: Ref(MenuList.section, s))
        guard args.count == 1 else {
            throw TabulaError(.syntax, "ADD \(p) takes one entry title, e.g. ADD \(p) \"Calzone\"")
        }
        let title = try Title.checked(args[0], of: "a menu entry")
        let slug = Slug.make(title)
        guard !sections[s].entries.contains(where: { $0.slug == slug }) else {
            throw TabulaError(.exists, "\(p)/\(slug) exists already")
        }
        sections[s].entries.append(MenuEntry(slug: slug, title: title))
        let ref = Ref(MenuList.entry, s, sections[s].entries.count - 1)
        return .changed(
            .add, path: path(of: ref), entry: (Model.menuIndex, ref), row: entryRow(s, ref.b),
            message: path(of: ref), summary: title,
            mutations: record(MenuCodec.whole(sections)))
    }

    mutating func retitle(_ ref: Ref, _ fields: [FieldAssignment]) throws -> Outcome {
        let p = path(of: ref)
        let title = try Title.only(fields, at: p)
        let lower = title.lowercased()
        if ref.kind == MenuList.section {
            if sections.indices.contains(where: { $0 != ref.a && sections[$0].title.lowercased() == lower }) {
                throw TabulaError(.exists, "another menu section is titled \(title) already; pick another title")
            }
            guard sections[ref.a].title != title else { return .unchanged(p, rows: [sectionRow(ref.a)]) }
            sections[ref.a].title = title
        } else {
            if sections[ref.a].entries.indices.contains(where: {
                $0 != ref.b && sections[ref.a].entries[$0].title.lowercased() == lower
            }) {
                throw TabulaError(
                    .exists,
                    "another entry of \(path(of: Ref(MenuList.section, ref.a))) is titled \(title) already; pick another title"
                )
            }
            guard sections[ref.a].entries[ref.b].title != title else {
                return .unchanged(p, rows: [entryRow(ref.a, ref.b)])
            }
            sections[ref.a].entries[ref.b].title = title
        }
        let row = ref.kind == MenuList.section ? sectionRow(ref.a) : entryRow(ref.a, ref.b)
        return .changed(
            .set, path: p, row: row, message: p, summary: title, mutations: record(MenuCodec.whole(sections)))
    }
}
