import TabulaProtocol

/// An event as a user with grants is sent it: every field rendered from what that user may
/// see, live, in replays and on every transport (the loops, the engine and the replay all
/// ask `view` and `receives`). Pure.
///
/// - An order of a denied menu entry is, for that user, an order never made: neither its
///   `order` nor its `rm` (whose `prev` names the entry) reaches it.
/// - Positions and counts of children (a catalog branch's `children`, a menu section's
///   `entries`, the `(n children)` of their text, and the parent's row's) are the user's own
///   view's: those the write found in that view (`Event.inViews`, `EventViews`). Where it
///   found none (the user's grants were not among the views then), positions and `parent` go
///   (`Event.restricted`) and a count that the grants make differ is left out.
/// - A setting's `options` lists only the options the user sees, and when one is hidden
///   `selected` (an index counting them all) is left out: `value` and the master row say
///   which is selected, as the setting's state, shown to whoever may see the setting.
/// - `clear` says `orders cleared` without a count, when the user cannot see every order.
extension Grants {
    /// `e` as a watcher with these grants is sent it.
    public func view(_ e: Event) -> Event {
        if isUnrestricted { return e }
        let own = e.inViews?.entry(for: description)
        var v: Event
        if seesPositions(of: e) {
            v = e
        } else if let own {
            v = e.placed(inView: own)  // positions in this user's own view
            if let n = own.parentCount, let p = e.parent { v.parent = Self.counted(p, n) }
        } else {
            v = e.restricted
        }
        if e.what == .clear && e.path == "/orders" && !seesEveryOrder {
            v.summary = "orders cleared"
            return v
        }
        guard !seesAll(of: e.path) else { return v }
        guard let own else {
            v.value = redacted(v.value, at: e.path)
            v.prev = redacted(v.prev, at: e.path)
            v.summary = Self.withoutCount(v.summary)
            return v
        }
        v.value = seenOptions(Self.counted(v.value, own.count), at: e.path)
        v.prev = seenOptions(Self.counted(v.prev, own.countBefore), at: e.path)
        v.summary = own.count.map { Self.withCount(v.summary, $0) } ?? Self.withoutCount(v.summary)
        return v
    }

    /// A catalog node's or menu section's row (`json`) with its count of children `n`, or
    /// without one when `n` is nil; any other row as it is.
    static func counted(_ json: JSONValue, _ n: Int?) -> JSONValue {
        guard case .object(var pairs) = json.resolved,
            let k = pairs.firstIndex(where: { $0.0 == "children" || $0.0 == "entries" })
        else { return json }
        if let n { pairs[k].1 = .int(Int64(n)) } else { pairs.remove(at: k) }
        return .object(pairs)
    }

    /// Whether a watcher with these grants is sent `e`: its path, and for an order (made or
    /// removed) the menu entry it names is not denied (an order of a denied entry is, for
    /// that user, an order never made; a user allowed only /orders, a kitchen's screen, sees
    /// every order).
    public func receives(_ e: Event) -> Bool {
        guard covers(e.path) else { return false }
        guard !deny.isEmpty, e.path.hasPrefix("/orders/") else { return true }
        for v in [e.value, e.prev] {
            if case .string(let entry)? = v["entry"], denies(entry) { return false }
        }
        return true
    }

    /// Whether no order may be hidden from these grants (each is hidden by a deny of its
    /// menu entry, or of the order itself).
    var seesEveryOrder: Bool { deny.isEmpty && covers("/orders") }

    /// `json` (an entry at `path`, as its list shows it) with what these grants hide under
    /// `path` left out.
    func redacted(_ json: JSONValue, at path: String) -> JSONValue {
        guard case .object(var pairs) = json.resolved else { return json }
        let type = pairs.first { $0.0 == "type" }?.1.stringValue
        if type == "node" || type == "menu-section" {
            pairs.removeAll { $0.0 == "children" || $0.0 == "entries" }
            return .object(pairs)
        }
        return seenOptions(.object(pairs), at: path)
    }

    /// A setting's JSON (`json`, at `path`) with only the options these grants show; when
    /// any is hidden, `selected` (an index counting them all) is left out too, and `value`
    /// says which is selected. Anything else is returned as it is.
    public func seenOptions(_ json: JSONValue, at path: String) -> JSONValue {
        guard ModelPath.parent(path) == "/settings", case .object(var pairs) = json.resolved,
            let kind = pairs.first(where: { $0.0 == "type" })?.1.stringValue.flatMap(OptionType.init(rawValue:)),
            let o = pairs.firstIndex(where: { $0.0 == "options" }), case .array(let options) = pairs[o].1
        else { return json }
        let shown = options.filter { option in
            Setting.optionSlug(json: option, type: kind).map { shows(path + "/" + $0) } ?? false
        }
        guard shown.count < options.count else { return json }
        pairs[o].1 = .array(shown)
        pairs.removeAll { $0.0 == "selected" }
        return .object(pairs)
    }

    /// A summary without its trailing count of children (`(3 children)`, `(1 entry)`).
    static func withoutCount(_ summary: String) -> String {
        guard let (open, _) = countedWord(summary) else { return summary }
        var s = String(summary[..<open])
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }

    /// A summary with its trailing count of children made `n` (`(2 children)`, `(1 entry)`).
    static func withCount(_ summary: String, _ n: Int) -> String {
        guard let (open, word) = countedWord(summary) else { return summary }
        let child = word.hasPrefix("child")
        return summary[..<open] + "(\(n) \(plural(n, child ? "child" : "entry", child ? "children" : "entries")))"
    }

    /// Where a summary's trailing count of children opens, and its word; nil when it has none.
    private static func countedWord(_ summary: String) -> (String.Index, String)? {
        guard summary.hasSuffix(")"), let open = summary.lastIndex(of: "(") else { return nil }
        let inner = summary[summary.index(after: open)..<summary.index(before: summary.endIndex)]
        let words = inner.split(separator: " ")
        guard words.count == 2, Int(words[0]) != nil,
            ["child", "children", "entry", "entries"].contains(String(words[1]))
        else { return nil }
        return (open, String(words[1]))
    }
}

extension Setting {
    /// The path name of an option given as its JSON value (`OptionType.json`), or nil.
    static func optionSlug(json: JSONValue, type: OptionType) -> String? {
        let canonical: String
        switch (type, json.resolved) {
        case (.text, .string(let s)): canonical = s
        case (.int, .int(let n)): canonical = String(n)
        case (.decimal, .double(let d)):
            guard case .success(let c) = type.canonical(String(d)) else { return nil }
            canonical = c
        case (.decimal, .int(let n)):
            guard case .success(let c) = type.canonical(String(n)) else { return nil }
            canonical = c
        case (.bool, .bool(let b)): canonical = b ? "on" : "off"
        case (_, .string(let s)): canonical = s
        default: return nil
        }
        return optionSlug(canonical, type: type)
    }
}
