import TabulaModel
import TabulaProtocol

/// The connections an event goes to, each once, with the format each wants. Shared and
/// kept while the watches behind it do not change, so that a run of events with the same
/// audience is recognised by identity and sent as one piece per connection.
final class Audience: Sendable {
    /// `channel`: the watched prefix it is a member by (RESP names it in each event).
    typealias Member = (conn: ConnectionID, format: WireFormat, view: WatcherView?, channel: String)
    let members: [Member]
    /// The formats its members want (each event is encoded once per format: `EventRun`).
    let formats: FormatSet
    /// Some member may receive only part of what is under the prefix, or see it otherwise
    /// (its user's grants, its FILTER: `WatcherView`).
    let restricted: Bool

    init(_ members: [Member]) {
        self.members = members
        formats = members.reduce(into: FormatSet()) { $0.insert(FormatSet($1.format)) }
        restricted = members.contains { $0.view != nil }
    }
}

/// Who watches what: prefixes to connections (with the format each wants), for fan-out.
/// Prefixes are told apart by their bytes (`PathBytes`), as a replay tells events' paths.
struct WatchHub {
    private var byPrefix: [PathBytes: Set<ConnectionID>] = [:]
    private var formats: [ConnectionID: WireFormat] = [:]
    /// The views of watchers not sent every event as it is (grants, FILTER).
    private var views: [ConnectionID: WatcherView] = [:]
    private var byConnection: [ConnectionID: Set<PathBytes>] = [:]
    /// Watched prefixes' audiences, built when first needed after their watchers or their
    /// watchers' formats or views changed (so that many joining watchers cost one build, not
    /// one each); only watched prefixes have one.
    private var audiences: [PathBytes: Audience] = [:]
    /// The watched prefixes as a tree, for removals (see `audience(of:removal:)`).
    private var tree = WatchTree()
    /// The watched prefixes by a hash of their bytes, so that an event's path is matched
    /// against them on its bytes first.
    private var slots = PrefixSlots()

    /// Whether nobody watches anything.
    var isEmpty: Bool { byPrefix.isEmpty }

    /// How many prefixes `c` watches.
    func watchCount(of c: ConnectionID) -> Int { byConnection[c]?.count ?? 0 }

    /// Whether `c` watches anything.
    func watches(_ c: ConnectionID) -> Bool { byConnection[c] != nil }

    /// Whether `c` watches `prefix` itself.
    func watches(_ c: ConnectionID, _ prefix: String) -> Bool { byConnection[c]?.contains(PathBytes(prefix)) == true }

    /// The format `c` is sent `e` in and the watched prefix it comes by, when one of its
    /// watches concerns it and its grants let it receive it; nil otherwise. A lookup per
    /// level of the event's path.
    /// The view `c` watches with (nil: it is sent every event as it is; see `WatcherView`).
    func view(of c: ConnectionID) -> WatcherView? { views[c] }

    func format(of c: ConnectionID, for e: Event) -> (format: WireFormat, channel: String)? {
        guard let f = formats[c], views[c]?.receives(e) ?? true else { return nil }
        var covered: String?
        slots.forEachCandidate(of: e.path) { p in
            if covered == nil, byPrefix[PathBytes(p)]?.contains(c) == true { covered = p }
        }
        if covered == nil && e.isRemoval { covered = byConnection[c]?.first { e.concerns($0.text) }?.text }
        return covered.map { (f, $0) }
    }

    /// The number of (connection, prefix) watches (kept, not summed: STATS and /metrics read it).
    private(set) var count = 0

    @discardableResult
    mutating func add(_ c: ConnectionID, _ prefix: String, format: WireFormat, view: WatcherView? = nil) -> Bool {
        let v = view?.kept
        if let old = formats[c], old != format { forget(byConnection[c] ?? []) }
        if views[c] != v { forget(byConnection[c] ?? []) }
        formats[c] = format
        views[c] = v
        let key = PathBytes(prefix)
        if byPrefix[key] == nil {
            tree.insert(prefix)
            slots.insert(prefix)
        }
        byPrefix[key, default: []].insert(c)
        let isNew = byConnection[c, default: []].insert(key).inserted
        if isNew { count += 1 }
        forget(CollectionOfOne(key))
        return isNew
    }

    /// Removes one prefix, or all of the connection's when nil; returns how many were removed.
    @discardableResult
    mutating func remove(_ c: ConnectionID, _ prefix: String?) -> Int {
        let prefixes = prefix.map { [PathBytes($0)] } ?? Array(byConnection[c] ?? [])
        var n = 0
        var touched: [PathBytes] = []
        for p in prefixes where byConnection[c]?.remove(p) != nil {
            n += 1
            byPrefix[p]?.remove(c)
            if byPrefix[p]?.isEmpty == true {
                byPrefix[p] = nil
                tree.remove(p.text)
                slots.remove(p.text)
            }
            touched.append(p)
        }
        if byConnection[c]?.isEmpty == true {
            byConnection[c] = nil
            formats[c] = nil
            views[c] = nil
        }
        forget(touched)
        count -= n
        return n
    }

    /// Records a connection's new wire format, for the events it is sent.
    mutating func setFormat(_ c: ConnectionID, _ format: WireFormat) {
        guard formats[c] != nil, formats[c] != format else { return }
        formats[c] = format
        forget(byConnection[c] ?? [])
    }

    /// Records the view a connection's events are rendered in (a user logged in again, a
    /// FILTER).
    mutating func setView(_ c: ConnectionID, _ view: WatcherView) {
        let v = view.kept
        guard byConnection[c] != nil, views[c] != v else { return }
        views[c] = v
        forget(byConnection[c] ?? [])
    }

    /// Everyone an event at `path` goes to: the audience of the one watched prefix it lies
    /// under (the same object each time while those watches stand), or a fresh union when it
    /// lies under several; nil when nobody watches it. Costs a hash of `path`'s bytes and a
    /// lookup per level of it that may be watched (`PrefixSlots`), however many prefixes are
    /// watched.
    ///
    /// A removal (`removal`) also goes to the watchers of prefixes under `path`: what they
    /// watch is gone with it. That costs a walk of the watched prefixes under it.
    mutating func audience(of path: String, removal: Bool = false) -> Audience? {
        guard !byPrefix.isEmpty else { return nil }
        var first: Audience?
        var more: [Audience] = []
        slots.forEachCandidate(of: path) { p in
            let key = PathBytes(p)
            // A built audience is forgotten whenever its prefix's watchers, or their formats
            // or views, change, so one found is current: one lookup for a watched prefix.
            let a: Audience
            if let built = audiences[key] {
                a = built
            } else {
                guard byPrefix[key] != nil else { return }
                a = audience(watching: key)
            }
            if first == nil { first = a } else { more.append(a) }
        }
        if removal {
            for p in tree.watched(under: path) {
                let a = audience(watching: PathBytes(p))
                if first == nil { first = a } else { more.append(a) }
            }
        }
        guard let first else { return nil }
        if more.isEmpty { return first }
        var seen = Set<ConnectionID>()
        var union: [Audience.Member] = []
        for a in [first] + more {
            for m in a.members where seen.insert(m.conn).inserted { union.append(m) }
        }
        return Audience(union)
    }

    /// `/` and every prefix of `path` that ends at a segment boundary, `path` itself last.
    static func prefixes(of path: String) -> [String] {
        var out: [String] = []
        forEachPrefix(of: path) { out.append($0) }
        return out
    }

    /// Calls `body` with each of `prefixes(of: path)`, without building the list (per event).
    static func forEachPrefix(of path: String, _ body: (String) -> Void) {
        body("/")
        guard !path.isEmpty else { return }
        let u = path.utf8
        var i = u.index(after: u.startIndex)
        while i < u.endIndex {
            if u[i] == UInt8(ascii: "/") { body(String(decoding: u[..<i], as: UTF8.self)) }
            i = u.index(after: i)
        }
        if path != "/" { body(path) }
    }

    private mutating func audience(watching p: PathBytes) -> Audience {
        if let a = audiences[p] { return a }
        let a = Audience((byPrefix[p] ?? []).map { ($0, formats[$0] ?? .text, views[$0], p.text) })
        audiences[p] = a
        return a
    }

    private mutating func forget<S: Sequence>(_ prefixes: S) where S.Element == PathBytes {
        for p in prefixes { audiences[p] = nil }
    }
}
