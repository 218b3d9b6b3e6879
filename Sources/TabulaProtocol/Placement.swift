/// Where an entry of an ordered list stands: its section, where the list has sections
/// (`/items`' price bands), and its 1-based position among its siblings (in its section, or
/// in its parent's list). Events carry it (`Event.at`, `Event.from`) so that a client keeps a
/// copy of a list without knowing the list's rules.
public struct Placement: Sendable, Hashable {
    /// The section's name (`cheap-items`), or nil where the list has no sections.
    public var section: String?
    /// 1-based; nil when it is not told (a watcher whose grants hide part of the list).
    public var position: Int?

    public init(section: String? = nil, position: Int?) {
        self.section = section
        self.position = position
    }

    /// `{"section":…,"position":…}`, the fields it has.
    public var json: JSONValue {
        var pairs: [(String, JSONValue)] = []
        if let section { pairs.append(("section", .string(section))) }
        if let position { pairs.append(("position", .int(Int64(position)))) }
        return .object(pairs)
    }

    /// Appends `json`'s text, written without building it (every change's event and stored
    /// row carries one or two).
    public func writeJSON(to out: inout [UInt8]) {
        ByteWriter.append(to: &out, atMost: 48 + 6 * (section?.utf8.count ?? 0)) { w in
            w.append(UInt8(ascii: "{"))
            if let section {
                w.append(#""section":"#)
                w.appendJSONString(section)
            }
            if let position {
                w.append(section == nil ? #""position":"# : #","position":"#)
                w.appendDecimal(Int64(position))
            }
            w.append(UInt8(ascii: "}"))
        }
    }

    /// The placement `v` states, or nil when it is not an object.
    public init?(json v: JSONValue?) {
        guard let v, case .object = v.resolved else { return nil }
        section = v["section"]?.stringValue
        position = v["position"]?.intValue.map { Int($0) }
    }

    /// Without its position.
    public var withoutPosition: Placement { Placement(section: section, position: nil) }
}
