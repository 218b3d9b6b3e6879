/// A change to the shared state, as watchers receive it.
public struct Event: Sendable, Equatable {
    /// The global revision this change made.
    public var rev: UInt64
    /// What happened, typed: what the server compares, never the text.
    public var what: Kind
    /// What happened, as the wire spells it: `add`, `set`, `select`, `rm`, `mv`, `fav`,
    /// `order`, `clear`, `bands`.
    public var kind: String {
        get { what.text }
        set { what = Kind(newValue) }
    }
    /// The path of the thing that changed.
    public var path: String
    /// A one-line text summary (for text clients).
    public var summary: String {
        get { summaryLine.string }
        set { summaryLine = LineText(newValue) }
    }
    /// The summary as kept: a `String`, or what writes it when it is sent (an item's row).
    public var summaryLine: LineText
    /// The new value (null for removals).
    public var value: JSONValue
    /// Where the entry stands after the change, in its ordered list (nil: removed, or not
    /// an entry of one: a `clear`, `bands`).
    public var at: Placement?
    /// Where it stood before (nil: it is new, or not an entry).
    public var from: Placement?
    /// The entry as it was, as its list shows it (null: it is new, or not an entry).
    public var prev: JSONValue = .null
    /// After an addition or removal whose parent is itself an entry of a list (a catalog
    /// node, a menu section, a setting): the parent's row now, as its own list shows it
    /// (its count of children changed).
    public var parent: JSONValue?
    /// Where the entry stands and stood in the views of viewers whose grants hide part of
    /// its list (nil: no such view asked for them); each is sent its own as `at` and `from`.
    public var inViews: ViewPlacements?
    /// For an item's event: where it stands and stood among its section's favourites (what a
    /// watcher with `FILTER favorites` counts in); nil when not told (not an item's event, or
    /// one made by a server of protocol version 1).
    public var amongFavorites: FavoritePlaces?

    /// Makes an event.
    public init(rev: UInt64, what: Kind, path: String, summary: String, value: JSONValue) {
        self.init(rev: rev, what: what, path: path, summary: LineText(summary), value: value)
    }

    /// Makes an event whose summary is kept as `summary`.
    public init(rev: UInt64, what: Kind, path: String, summary: LineText, value: JSONValue) {
        self.rev = rev
        self.what = what
        self.path = path
        self.summaryLine = summary
        self.value = value
    }

    /// Makes an event of the kind `kind` spells.
    public init(rev: UInt64, kind: String, path: String, summary: String, value: JSONValue) {
        self.init(rev: rev, what: Kind(kind), path: path, summary: summary, value: value)
    }

    /// The kinds of change. Compared as values, never as text.
    public enum Kind: Sendable, Hashable {
        case add, set, select, rm, mv, fav, order, clear, bands
        /// A kind this build does not know (a client reading a newer server), as spelled.
        case other(String)

        public init(_ text: String) {
            switch text {
            case "add": self = .add
            case "set": self = .set
            case "select": self = .select
            case "rm": self = .rm
            case "mv": self = .mv
            case "fav": self = .fav
            case "order": self = .order
            case "clear": self = .clear
            case "bands": self = .bands
            default: self = .other(text)
            }
        }

        /// Its name on the wire.
        public var text: String {
            switch self {
            case .add: "add"
            case .set: "set"
            case .select: "select"
            case .rm: "rm"
            case .mv: "mv"
            case .fav: "fav"
            case .order: "order"
            case .clear: "clear"
            case .bands: "bands"
            case .other(let text): text
            }
        }

        /// A removal: `rm`, or `clear` (of every order).
        public var removes: Bool { self == .rm || self == .clear }
    }

    /// Whether it says more than its value (what `WireEncoder` and the stores add).
    public var hasContext: Bool { at != nil || from != nil || parent != nil || !prev.isNull }
}

extension Event {
    /// The event without the position its summary and value name (a move's `#N in section: …` and its value's
    /// `position`), or nil when it names none. A position counts in the whole section, so a
    /// watcher with grants, whose view lacks some of the section, is sent this instead: it
    /// would learn from the number how many hidden entries stand before (its LS counts in
    /// its own view, and a move's place in it is read with LS).
    public var withoutPosition: Event? {
        guard summaryLine.begins(with: UInt8(ascii: "#")), let space = summary.firstIndex(of: " ") else { return nil }
        var e = self
        e.summary = String(summary[summary.index(after: space)...])
        if case .object(let pairs) = value.resolved { e.value = .object(pairs.filter { $0.0 != "position" }) }
        return e
    }

    /// The event as a watcher whose own view places its entry as `own` says is sent it: the
    /// positions of that view in `at`, `from` and a move's summary and value, and no `parent`
    /// (its count of children counts them all).
    public func placed(inView own: ViewPlacements.Entry) -> Event {
        var e = restricted
        if e.at != nil { e.at?.position = own.at }
        if e.from != nil { e.from?.position = own.from }
        if let a = own.at, summaryLine.begins(with: UInt8(ascii: "#")), let space = summary.firstIndex(of: " ") {
            e.summary = "#\(a)" + summary[space...]
            if case .object(var pairs) = value.resolved, let k = pairs.firstIndex(where: { $0.0 == "position" }) {
                pairs[k].1 = .int(Int64(a))
                e.value = .object(pairs)
            }
        }
        return e
    }

    /// The event as a watcher with grants is sent it: no position that counts what it may
    /// not see (a move's summary and value, `at` and `from`); sections stay.
    public var restricted: Event {
        var e = withoutPosition ?? self
        e.at = at?.withoutPosition
        e.from = from?.withoutPosition
        e.parent = nil  // its count of children counts them all
        return e
    }
}
