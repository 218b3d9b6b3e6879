import TabulaProtocol

/// A value as the reference models write it: JSON's shapes, and `unknown` for what only the
/// server decides (an item's serial, a creation time), which matches anything once and is
/// then learned from the event.
indirect enum RefValue: Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([RefValue])
    case object([(String, RefValue)])
    case unknown

    static func == (a: RefValue, b: RefValue) -> Bool { a.description == b.description }

    /// Keys sorted, so that two objects with the same fields read alike.
    var description: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return "\(i)"
        case .double(let d): return "\(d)"
        case .string(let s): return "\"\(s)\""
        case .array(let a): return "[" + a.map(\.description).joined(separator: ",") + "]"
        case .object(let o):
            return "{" + o.sorted { $0.0 < $1.0 }.map { "\($0.0):\($0.1)" }.joined(separator: ",") + "}"
        case .unknown: return "?"
        }
    }

    /// Whether `actual` is this, `unknown` matching anything.
    func matches(_ actual: RefValue) -> Bool {
        switch (self, actual) {
        case (.unknown, _): return true
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.matches($1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            let byKey = Dictionary(b, uniquingKeysWith: { x, _ in x })
            return a.allSatisfy { k, v in byKey[k].map { v.matches($0) } ?? false }
        default: return self == actual
        }
    }

    subscript(_ key: String) -> RefValue? {
        guard case .object(let o) = self else { return nil }
        return o.first { $0.0 == key }?.1
    }

    /// The server's JSON as a reference value (a client's decoding: no server code).
    init(_ j: JSONValue) {
        switch j.resolved {
        case .null, .deferred: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .int(Int(i))
        case .double(let d): self = .double(d)
        case .string(let s): self = .string(s)
        case .array(let a): self = .array(a.map(RefValue.init))
        case .object(let o): self = .object(o.map { ($0.0, RefValue($0.1)) })
        }
    }
}

/// One event as a reference model predicts it: every field a JSON event carries but the
/// revision (the test counts those itself).
struct ReferenceEvent: Equatable, CustomStringConvertible {
    var kind: String
    var path: String
    var value: RefValue = .null
    var prev: RefValue = .null
    /// `{section?, position}` where the entry stands after; nil for a removal.
    var at: RefValue?
    /// Where it stood before; nil for an addition.
    var from: RefValue?
    /// The parent's row, when the parent is itself a row of a list.
    var parent: RefValue?

    var description: String {
        "\(kind) \(path) value=\(value) prev=\(prev) at=\(at?.description ?? "-") from=\(from?.description ?? "-") parent=\(parent?.description ?? "-")"
    }

    /// Whether `actual` is this event, `unknown` parts matching anything.
    func matches(_ actual: ReferenceEvent) -> Bool {
        kind == actual.kind && path == actual.path && value.matches(actual.value) && prev.matches(actual.prev)
            && Self.same(at, actual.at) && Self.same(from, actual.from) && Self.same(parent, actual.parent)
    }

    private static func same(_ a: RefValue?, _ b: RefValue?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let x?, let y?): return x.matches(y)
        default: return false
        }
    }

    init(
        kind: String, path: String, value: RefValue = .null, prev: RefValue = .null, at: RefValue? = nil,
        from: RefValue? = nil, parent: RefValue? = nil
    ) {
        self.kind = kind
        self.path = path
        self.value = value
        self.prev = prev
        self.at = at
        self.from = from
        self.parent = parent
    }

    /// A pushed JSON event line as this (its revision beside it), or nil for another line.
    static func pushed(_ line: String) -> (rev: Int, event: ReferenceEvent)? {
        guard let e = JSONParser.parse(line), e["push"] == .string("event"), let kind = e["kind"]?.stringValue,
            let path = e["path"]?.stringValue, let rev = e["rev"]?.intValue
        else { return nil }
        let event = ReferenceEvent(
            kind: kind, path: path, value: e["value"].map(RefValue.init) ?? .null,
            prev: e["prev"].map(RefValue.init) ?? .null, at: e["at"].map(RefValue.init),
            from: e["from"].map(RefValue.init), parent: e["parent"].map(RefValue.init))
        return (Int(rev), event)
    }

    /// A place: `{"section": s, "position": n}`, or `{"position": n}` for a list without sections.
    static func place(_ position: Int, section: String? = nil) -> RefValue {
        var o: [(String, RefValue)] = [("position", .int(position))]
        if let section { o.append(("section", .string(section))) }
        return .object(o)
    }
}

/// A reference model that predicts the events of the changes it is told of (`events`, taken
/// by the test after each), and learns from a pushed event what only the server decides.
protocol PredictsEvents {
    var events: [ReferenceEvent] { get set }
    mutating func learn(from e: ReferenceEvent)
}

extension ReferenceItems: PredictsEvents {
    /// A new item's serial and creation time.
    mutating func learn(from e: ReferenceEvent) {
        guard e.kind == "add", case .int(let id) = e.value["id"] else { return }
        learn(id, serial: e.value["serial"] ?? .unknown, created: e.value["created"] ?? .unknown)
    }
}

extension ReferenceSettingsAndOrders: PredictsEvents {
    /// A new order's creation time.
    mutating func learn(from e: ReferenceEvent) {
        guard e.kind == "order", case .int(let id) = e.value["id"] else { return }
        learn(order: id, created: e.value["created"] ?? .unknown)
    }
}

extension ReferenceTree: PredictsEvents {
    /// Nothing: the catalog and the menu hold nothing the server decides.
    func learn(from e: ReferenceEvent) {}
}
