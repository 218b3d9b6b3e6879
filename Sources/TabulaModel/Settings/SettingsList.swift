import TabulaProtocol

/// `/settings` (seed 000): the master list of settings, each a detail with typed options and
/// one selected; a master row shows the selection and changes with it.
public struct SettingsList: ListStore {
    public static let name = "settings"
    /// Places: the list, a setting (`a`: index), an option (`a`: setting, `b`: option).
    static let setting: UInt8 = 1, option: UInt8 = 2

    /// The settings, in order.
    public internal(set) var settings: [Setting] = []

    public init() {}

    public var recordsMutations = true

    public func summary(seenBy viewer: Viewer) -> Row {
        let n = viewer.isRestricted ? settings.count { viewer.sees($0.path) } : settings.count
        return Row(
            text: "settings/  \(n) \(plural(n, "setting"))",
            json: .object([("name", .string("settings")), ("count", .int(Int64(n)))]), path: RowPath("/", "settings"))
    }

    public func isList(_ ref: Ref) -> Bool { ref.kind != SettingsList.option }

    public func child(of ref: Ref, named name: String) -> Ref? {
        switch ref.kind {
        case 0:
            let lower = folded(name)
            return settings.firstIndex { $0.slug == lower }.map { Ref(SettingsList.setting, $0) }
        case SettingsList.setting:
            return settings[ref.a].optionIndex(named: name).map { Ref(SettingsList.option, ref.a, $0) }
        default: return nil
        }
    }

    public func path(of ref: Ref) -> String {
        switch ref.kind {
        case 0: return "/settings"
        case SettingsList.setting: return settings[ref.a].path
        default: return "\(settings[ref.a].path)/\(settings[ref.a].optionSlug(ref.b))"
        }
    }

    public func childNames(of ref: Ref, limit: Int) -> [(name: String, isList: Bool)] {
        switch ref.kind {
        case 0: return settings.prefix(limit).map { ($0.slug, true) }
        case SettingsList.setting:
            return settings[ref.a].options.indices.prefix(limit).map { (settings[ref.a].optionSlug($0), false) }
        default: return []
        }
    }

    func settingRow(_ i: Int, master: String? = nil) -> Row {
        Row(
            text: "\(settings[i].slug)/  \(master ?? settings[i].masterRow)", json: settingJSON(i),
            path: RowPath("/settings", settings[i].slug))
    }

    /// Setting `i`'s row as JSON, without its text.
    func settingJSON(_ i: Int) -> JSONValue { .deferred(settings[i]) }

    func optionRows(_ i: Int) -> [Row] {
        let s = settings[i]
        return s.options.indices.map { o in
            let mark = o == s.selected ? RowMarks.selected : RowMarks.unselected
            return Row(
                text: "\(mark) #\(o + 1)  \(s.options[o])",
                json: .object([
                    ("type", .string("option")), ("index", .int(Int64(o + 1))), ("name", .string(s.optionSlug(o))),
                    ("value", s.type.json(s.options[o])), ("selected", .bool(o == s.selected)),
                ]), path: RowPath(s.path, s.optionSlug(o)))
        }
    }

    public func list(_ ref: Ref, limit: Int, after: String?, viewer: Viewer) throws -> Reply {
        switch ref.kind {
        case 0:
            return try pageReply(
                Array(settings.indices), path: "/settings", limit: limit, after: after, viewer: viewer,
                name: { settings[$0].slug }, row: { settingRow($0) })
        case SettingsList.setting: return Reply(rows: optionRows(ref.a), message: settings[ref.a].masterRow)
        default: return try show(ref, viewer: viewer)
        }
    }

    public func show(_ ref: Ref, viewer: Viewer) throws -> Reply {
        switch ref.kind {
        case SettingsList.setting:
            let s = settings[ref.a]
            // Only the options the viewer sees (a deny of /settings/x/64 hides 64).
            let seen = s.options.indices.filter { viewer.sees(s.path + "/" + s.optionSlug($0)) }.map { s.options[$0] }
            return Reply(
                rows: [
                    fieldRow("title", s.title, .string(s.title)),
                    fieldRow("type", s.type.rawValue, .string(s.type.rawValue)),
                    // Its index counts every option: said only to a viewer who sees them all.
                    fieldRow(
                        "selected",
                        seen.count == s.options.count ? "\(s.selectedValue) (#\(s.selected + 1))" : s.selectedValue,
                        s.type.json(s.selectedValue)),
                    fieldRow("options", seen.joined(separator: ", "), .array(seen.map { s.type.json($0) })),
                ], message: s.masterRow)
        case SettingsList.option:
            let s = settings[ref.a], o = ref.b
            return Reply(
                rows: [
                    fieldRow("value", s.options[o], s.type.json(s.options[o])),
                    fieldRow("index", "#\(o + 1)", .int(Int64(o + 1))),
                    fieldRow("selected", o == s.selected ? "yes" : "no", .bool(o == s.selected)),
                ], message: path(of: ref))
        default:
            return try list(ref, limit: Model.defaultPage, after: nil, viewer: viewer)
        }
    }

    public func completions(for verb: Verb, argument index: Int, at ref: Ref) -> [String] {
        guard index == 1, ref.kind == SettingsList.setting else { return [] }
        if verb == .set { return ["title="] }
        guard verb == .select else { return [] }
        let s = settings[ref.a]
        return s.options + s.options.indices.map { "#\($0 + 1)" }  // in the setting's own order
    }
}

/// Writes.
extension SettingsList {
    public mutating func write(_ w: Write, at ref: Ref, viewer: Viewer, now: Double, rng: inout SplitMix64) throws
        -> Outcome?
    {
        switch (w, ref.kind) {
        case (.select(let option), SettingsList.setting): return try select(ref.a, option)
        case (.add(let args), 0): return try addSetting(args)
        case (.add(let args), SettingsList.setting): return try addOptions(ref.a, args)
        case (.set(let fields), SettingsList.setting): return try retitle(ref.a, fields)
        case (.remove, SettingsList.setting): return removeSetting(ref.a)
        case (.remove, SettingsList.option): return try removeOption(ref.a, ref.b)
        default: return nil
        }
    }

    func put(_ i: Int) -> Mutation { SettingsCodec.put(settings[i], position: i) }

    /// Setting `i` changed: the reply (its row, or `rows`), the event with its master row,
    /// and the setting to store. `message` nil: the master row.
    func changed(_ kind: Event.Kind, _ i: Int, message: String? = nil, rows: [Row]? = nil) -> Outcome {
        let master = settings[i].masterRow
        let row = settingRow(i, master: master)
        let event = Event(rev: 0, what: kind, path: settings[i].path, summary: master, value: row.json)
        let replyRows: [Row]
        if let rows { replyRows = rows } else { replyRows = [consume row] }
        return Outcome(
            Reply(rows: replyRows, message: message ?? master), event: event, mutations: record([put(i)]),
            entry: (Model.settingsIndex, Ref(SettingsList.setting, i)))
    }

    mutating func select(_ i: Int, _ option: OptionRef) throws -> Outcome {
        let idx: Int
        switch option {
        case .index(let n):
            guard n >= 1 && n <= settings[i].options.count else {
                throw TabulaError(
                    .notFound, "\(settings[i].title) has options #1 to #\(settings[i].options.count), not #\(n)")
            }
            idx = n - 1
        case .value(let v):
            guard let found = settings[i].optionIndex(named: v) else {
                throw TabulaError(
                    .notFound,
                    "\(settings[i].title) has no option '\(v)'; its options are \(settings[i].options.joined(separator: ", "))"
                )
            }
            idx = found
        }
        guard settings[i].selected != idx else { return .unchanged(settings[i].masterRow, rows: [settingRow(i)]) }
        settings[i].selected = idx
        return changed(.select, i)
    }

    mutating func addSetting(_ args: [String]) throws -> Outcome {
        guard args.count >= 3 else {
            throw TabulaError(
                .syntax,
                "ADD /settings takes a title, a type (\(OptionType.allCases.map(\.rawValue).joined(separator: "|"))) and at least one option, e.g. ADD /settings \"My Size\" int 1 2 3"
            )
        }
        let title = try Title.checked(args[0], of: "a setting")
        guard let type = OptionType(rawValue: args[1].lowercased()) else {
            throw TabulaError(
                .invalid,
                "unknown option type '\(args[1])'; use one of \(OptionType.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        let slug = Slug.make(title)
        guard !settings.contains(where: { $0.slug == slug }) else {
            throw TabulaError(.exists, "/settings/\(slug) exists already")
        }
        var setting = Setting(slug: slug, title: title, type: type, options: [], selected: 0)
        try setting.addOptions(args.dropFirst(2))
        settings.append(setting)
        let i = settings.count - 1
        return changed(.add, i, message: setting.path)
    }

    mutating func addOptions(_ i: Int, _ args: [String]) throws -> Outcome {
        guard !args.isEmpty else {
            throw TabulaError(
                .syntax, "ADD \(settings[i].path) takes one or more option values, e.g. ADD /settings/my-int 128")
        }
        var s = settings[i]
        try s.addOptions(args[...])
        settings[i] = s
        return changed(.set, i, message: "\(s.options.count) options", rows: optionRows(i))
    }

    mutating func retitle(_ i: Int, _ fields: [FieldAssignment]) throws -> Outcome {
        let title = try Title.only(fields, at: settings[i].path, known: "title (select options with SELECT)")
        let lower = title.lowercased()
        if settings.indices.contains(where: { $0 != i && settings[$0].title.lowercased() == lower }) {
            throw TabulaError(.exists, "another setting is titled \(title) already; pick another title")
        }
        guard settings[i].title != title else { return .unchanged(settings[i].masterRow, rows: [settingRow(i)]) }
        settings[i].title = title
        return changed(.set, i)
    }

    mutating func removeSetting(_ i: Int) -> Outcome {
        let gone = settings.remove(at: i)
        let muts = record(
            [Mutation(SettingsCodec.table, .delete(.text(gone.slug)))] + (i..<settings.count).map { put($0) })
        return Outcome(
            Reply(message: "removed \(gone.path)"),
            event: Event(rev: 0, what: .rm, path: gone.path, summary: gone.title, value: .null), mutations: muts)
    }

    mutating func removeOption(_ i: Int, _ o: Int) throws -> Outcome {
        let p = path(of: Ref(SettingsList.option, i, o))
        guard settings[i].options.count > 1 else {
            throw TabulaError(
                .conflict,
                "\(p) is the only option of \(settings[i].title); a setting needs one (RM \(settings[i].path) removes the setting)"
            )
        }
        guard settings[i].selected != o else {
            throw TabulaError(.conflict, "\(p) is selected; SELECT another option first")
        }
        settings[i].options.remove(at: o)
        if settings[i].selected > o { settings[i].selected -= 1 }
        return changed(.set, i, message: "removed \(p)", rows: [])
    }
}
