/// What an event's entry is in the views of viewers whose grants hide part of its list or of
/// what is under it: for each such view (named by its grants as the users file writes them),
/// the 1-based positions that view's own `LS` shows, after (`at`) and before (`from`) the
/// change, and the counts of children its rows show (the entry's after and before, its
/// parent's after). The server sends each such watcher its own view's figures in `at`, `from`,
/// `value`, `prev` and `parent`; the stores keep them with the event, so that a replay sends
/// the same. Never on the wire as is.
public final class ViewPlacements: Sendable, Equatable {
    /// One view's positions.
    public struct Entry: Sendable, Equatable {
        /// The view's grants, as `Grants.description` writes them.
        public let view: String
        public let at: Int?
        public let from: Int?
        /// The entry's count of children after the change, before it, and its parent's after.
        public let count: Int?
        public let countBefore: Int?
        public let parentCount: Int?

        public init(
            view: String, at: Int?, from: Int?, count: Int? = nil, countBefore: Int? = nil, parentCount: Int? = nil
        ) {
            self.view = view
            self.at = at
            self.from = from
            self.count = count
            self.countBefore = countBefore
            self.parentCount = parentCount
        }

        /// Whether it says anything.
        public var says: Bool { at != nil || from != nil || count != nil || countBefore != nil || parentCount != nil }

        /// Its figures by name, as `writeJSON` writes them.
        var figures: [(String, Int?)] {
            [("at", at), ("from", from), ("count", count), ("prevCount", countBefore), ("parentCount", parentCount)]
        }
    }

    public let entries: [Entry]

    public init(_ entries: [Entry]) { self.entries = entries }

    /// The positions in `view`, if the event carries them.
    public func entry(for view: String) -> Entry? { entries.first { $0.view == view } }

    public static func == (a: ViewPlacements, b: ViewPlacements) -> Bool { a.entries == b.entries }

    /// `[{"view":…,"at":N,"from":N,"count":N,"prevCount":N,"parentCount":N},…]`, the fields
    /// each has.
    public func writeJSON(to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (k, e) in entries.enumerated() {
            if k > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"view":"#.utf8)
            JSONValue.string(e.view).write(to: &out)
            for (name, n) in e.figures {
                guard let n else { continue }
                out.append(contentsOf: ",\"\(name)\":".utf8)
                JSONValue.int(Int64(n)).write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
    }

    /// Reads what `writeJSON` wrote; nil for anything else.
    public convenience init?(json: JSONValue?) {
        guard case .array(let items)? = json?.resolved else { return nil }
        var entries: [Entry] = []
        for item in items {
            guard let view = item["view"]?.stringValue else { return nil }
            func n(_ key: String) -> Int? { item[key]?.intValue.map(Int.init) }
            entries.append(
                Entry(
                    view: view, at: n("at"), from: n("from"), count: n("count"), countBefore: n("prevCount"),
                    parentCount: n("parentCount")))
        }
        self.init(entries)
    }
}

/// Where an item stands after a change and stood before it among its section's favourites,
/// 1-based, 0 where it is no favourite (or is gone, or is new): all a watcher with `FILTER
/// favorites` and no grants needs to place the change in its view. Two numbers, kept in the
/// event itself (no allocation for the every-write case).
public struct FavoritePlaces: Sendable, Equatable {
    public var at: Int32
    public var from: Int32

    public init(at: Int, from: Int) {
        self.at = Int32(clamping: at)
        self.from = Int32(clamping: from)
    }

    /// Reads `[AT,FROM]` as `storedPayload` writes it; nil for anything else.
    public init?(json: JSONValue?) {
        guard case .array(let a)? = json?.resolved, a.count == 2, let at = a[0].intValue, let from = a[1].intValue
        else { return nil }
        self.init(at: Int(at), from: Int(from))
    }

    /// The places as a view's figures (`nil` where it is no favourite).
    public func entry(view: String) -> ViewPlacements.Entry {
        ViewPlacements.Entry(view: view, at: at > 0 ? Int(at) : nil, from: from > 0 ? Int(from) : nil)
    }
}
