import TabulaProtocol

/// One detail of the master/detail settings list: a title, typed options and a selection.
public struct Setting: Sendable, Equatable, JSONRepresentable {
    /// Makes one.
    public init(slug: String, title: String, type: OptionType, options: [String], selected: Int) {
        self.slug = slug
        self.path = Setting.path(slug)
        self.title = title
        self.type = type
        self.options = options
        self.selected = selected
    }

    /// Path name.
    public var slug: String { didSet { path = Setting.path(slug) } }
    /// The canonical path, `/settings/<slug>` (kept, as events name it on every change).
    public private(set) var path: String

    static func path(_ slug: String) -> String { "/settings/" + slug }
    /// Shown title, e.g. "My Int".
    public var title: String
    /// The options' type.
    public var type: OptionType
    /// Canonical option values, in order.
    public var options: [String]
    /// Index of the selected option.
    public var selected: Int

    /// The selected option's value, formatted.
    public var selectedValue: String { options.indices.contains(selected) ? options[selected] : "" }
    /// The master row: "My Int: 16".
    public var masterRow: String { "\(title): \(selectedValue)" }

    /// The path name of option `i`: a number is its own name, sign included (`-5` and `5`
    /// are two options), anything else its slug.
    public func optionSlug(_ i: Int) -> String { Setting.optionSlug(options[i], type: type) }

    static func optionSlug(_ canonical: String, type: OptionType) -> String {
        switch type {
        case .int, .decimal, .bool: return canonical
        case .text: return Slug.make(canonical)
        }
    }

    /// Adds options from raw values; a value (or its path name) already there is refused.
    /// Checked with a set, so a long list costs linear time.
    mutating func addOptions(_ raws: ArraySlice<String>) throws {
        var names = Set(options.indices.map { optionSlug($0) })
        for raw in raws {
            let c = try type.canonical(raw).get()
            guard names.insert(Setting.optionSlug(c, type: type)).inserted else {
                throw TabulaError(.exists, "\(title) already has option \(c)")
            }
            options.append(c)
        }
    }

    /// The index of the option named by value or path name.
    public func optionIndex(named name: String) -> Int? {
        if let c = try? type.canonical(name).get(), let i = options.firstIndex(of: c) { return i }
        if let i = options.firstIndex(where: { $0.lowercased() == name.lowercased() }) { return i }
        return options.indices.first { optionSlug($0) == name.lowercased() }
    }

    /// The setting as JSON.
    public var json: JSONValue {
        .object([
            ("name", .string(slug)), ("title", .string(title)), ("type", .string(type.rawValue)),
            ("options", .array(options.map { type.json($0) })), ("selected", .int(Int64(selected + 1))),
            ("value", type.json(selectedValue)), ("row", .string(masterRow)),
        ])
    }

    /// `json`'s text, written without building it (every SELECT writes it into the history).
    public func writeJSON(to out: inout [UInt8]) {
        out.append(#"{"name":"#)
        JSONValue.writeString(slug, to: &out)
        out.append(#","title":"#)
        JSONValue.writeString(title, to: &out)
        out.append(#","type":"#)
        JSONValue.writeString(type.rawValue, to: &out)
        out.append(#","options":["#)
        for (i, o) in options.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            type.json(o).write(to: &out)
        }
        out.append(#"],"selected":"#)
        JSONValue.writeInt(Int64(selected + 1), to: &out)
        out.append(#","value":"#)
        type.json(selectedValue).write(to: &out)
        out.append(#","row":""#)
        JSONValue.writeEscaped(title, to: &out)
        out.append(": ")
        JSONValue.writeEscaped(selectedValue, to: &out)
        out.append(#""}"#)
    }
}
