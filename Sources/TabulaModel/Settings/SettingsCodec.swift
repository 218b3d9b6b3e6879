import TabulaProtocol

/// How `/settings` is stored: a row per setting, its options as a JSON array.
enum SettingsCodec {
    static let table = "settings"
    static let schema = ListSchema(tables: [
        TableSchema(
            table,
            columns: [
                ("slug", "TEXT"), ("position", "INTEGER"), ("title", "TEXT"), ("type", "TEXT"), ("options", "TEXT"),
                ("selected", "INTEGER"),
            ], loadOrder: "position")
    ])

    /// A setting's row, encoded when read.
    struct Row: StoredRow {
        let setting: Setting
        let position: Int

        var key: StoredValue { .text(setting.slug) }

        var values: [StoredValue] {
            let s = setting
            var options: [UInt8] = []
            JSONValue.array(s.options.map { .string($0) }).write(to: &options)
            return [
                .text(s.slug), .int(Int64(position)), .text(s.title), .text(s.type.rawValue),
                .text(String(decoding: options, as: UTF8.self)), .int(Int64(s.selected)),
            ]
        }
    }

    static func put(_ s: Setting, position: Int) -> Mutation {
        Mutation(table, .put(Row(setting: s, position: position)))
    }

    static func decode(_ row: any StoredRow) -> (Setting, position: Int)? {
        if let own = row as? Row { return (own.setting, own.position) }
        let r = row.values
        guard r.count == 6 else { return nil }
        let options = JSONParser.parse(r[4].text)?.arrayValue?.compactMap(\.stringValue) ?? []
        return (
            Setting(
                slug: r[0].text, title: r[2].text, type: OptionType(rawValue: r[3].text) ?? .text, options: options,
                selected: r[5].int), r[1].int
        )
    }
}

/// Storage of `/settings`.
extension SettingsList {
    public static var schema: ListSchema { SettingsCodec.schema }

    public mutating func apply(_ m: Mutation) {
        switch m.change {
        case .put(let r):
            guard let (s, position) = SettingsCodec.decode(r) else { return }
            if let i = settings.firstIndex(where: { $0.slug == s.slug }) { settings.remove(at: i) }
            settings.insert(s, at: min(max(0, position), settings.count))
        case .delete(let slug):
            settings.removeAll { $0.slug == slug.text }
        case .replaceAll(let rows):
            settings = rows.compactMap { SettingsCodec.decode($0)?.0 }
        case .counter:
            break
        }
    }

    public func snapshot() -> [Mutation] {
        settings.indices.map { put($0) }
    }
}
