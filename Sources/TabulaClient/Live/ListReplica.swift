import TabulaProtocol

/// A copy of one list, as `LS path` shows it, kept from a watch's snapshot and events alone:
/// no rule of the server's lists is known here. Events say where their entry stands now and
/// stood (`Event.at`, `Event.from`), so each is applied by position; one that does not fit
/// (a position this copy does not have, one not told) asks for a snapshot instead of
/// guessing. Pure: no I/O.
public struct ListReplica: Sendable, Equatable {
    /// One row: its entry's path, its value as `LS` shows it (without `rev`), and the
    /// revision of its entry's last change.
    public struct Entry: Sendable, Equatable, Identifiable {
        public let path: String
        public var value: JSONValue
        public var rev: UInt64
        public var id: String { path }
    }

    /// A section (`/items`' price bands) or, for a list without sections, the one unnamed
    /// section holding every row.
    public struct Section: Sendable, Equatable, Identifiable {
        public var name: String?
        /// Its header row as `LS` shows it (nil for the unnamed one); its `count` is kept.
        public var header: JSONValue?
        public var entries: [Entry]
        public var id: String { name ?? "" }
    }

    /// Where a row is: section and row, 0-based (a diffable data source's index path).
    public struct Index: Sendable, Hashable {
        public var section: Int
        public var row: Int
    }

    /// What applying something did.
    public enum Outcome: Sendable, Equatable {
        /// Nothing this copy shows changed (the event was elsewhere, or already held).
        case unchanged
        case changed(ListChange)
        /// The event cannot be applied here; take a snapshot (`WATCH … SNAPSHOT`), and why.
        case needsSnapshot(String)
        /// The list itself was removed.
        case gone
    }

    /// The list, absolute (`/items`).
    public let path: String
    public private(set) var sections: [Section] = []
    /// The revision this copy holds everything through: what to resume from (`FROM`).
    public private(set) var rev: UInt64 = 0
    /// A snapshot is being received (`beginSnapshot` … `endSnapshot`).
    public private(set) var receivingSnapshot = false
    /// The list no longer exists.
    public private(set) var isGone = false

    public init(path: String) { self.path = path }

    /// Every row, in order.
    public var entries: [Entry] { sections.flatMap(\.entries) }

    /// Where the row of `path` is.
    public func index(of path: String) -> Index? {
        for (s, section) in sections.enumerated() {
            if let r = section.entries.firstIndex(where: { $0.path == path }) { return Index(section: s, row: r) }
        }
        return nil
    }

    /// The row of `path`.
    public func entry(_ path: String) -> Entry? { index(of: path).map { sections[$0.section].entries[$0.row] } }

    /// The rows it holds (an unfinished snapshot's included), section headers left out.
    public var rowCount: Int { sections.reduce(0) { $0 + $1.entries.count } }

    // MARK: - Snapshots

    /// A snapshot begins: the rows that follow replace everything.
    public mutating func beginSnapshot() {
        sections = []
        isGone = false
        receivingSnapshot = true
        rev = 0  // the snapshot's `synced` says what it holds (another history's may be lower)
    }

    /// One row of the snapshot, in order (`Push.row`).
    public mutating func takeRow(path: String?, value: JSONValue) {
        switch value["type"]?.stringValue {
        case "section":
            sections.append(
                Section(name: value["name"]?.stringValue, header: ListReplica.withoutRev(value), entries: []))
        case "empty":
            return  // how LS shows an empty section: the section says it
        default:
            guard let path else { return }
            if sections.isEmpty { sections.append(Section(name: nil, header: nil, entries: [])) }
            let rev = value["rev"]?.intValue.map { UInt64($0) } ?? 0
            sections[sections.count - 1].entries.append(
                Entry(path: path, value: ListReplica.withoutRev(value), rev: rev))
        }
    }

    /// The snapshot (or a replay) is complete through `rev` (`Push.synced`).
    public mutating func synced(_ rev: UInt64) {
        receivingSnapshot = false
        self.rev = max(self.rev, rev)
    }

    // MARK: - Events

    /// Applies `e`, one of a watch's events of this list's prefix.
    public mutating func apply(_ e: Event) -> Outcome {
        guard e.rev > rev else { return .unchanged }
        let outcome = applyNew(e)
        if case .needsSnapshot = outcome { return outcome }
        rev = e.rev
        return outcome
    }

    private mutating func applyNew(_ e: Event) -> Outcome {
        if e.path == path || ListReplica.isUnder(path, e.path) {
            switch e.kind {
            case "rm":
                sections = []
                isGone = true
                return .gone
            case "clear" where e.path == path:
                let deleted = indices()
                for s in sections.indices { sections[s].entries.removeAll() }
                return deleted.isEmpty
                    ? .unchanged
                    : .changed(ListChange(rev: e.rev, deleted: deleted.map(\.1), deletedIDs: deleted.map(\.0)))
            case "bands" where e.path == path:
                return .needsSnapshot("the list's sections changed")
            default:
                // The list's own row, not one of its rows; but a setting's options are drawn
                // from the setting, so its change is one of theirs (which it does not place).
                return isOptions ? .needsSnapshot("the setting's options changed") : .unchanged
            }
        }
        guard ListReplica.isUnder(e.path, path) else { return .unchanged }
        if ListReplica.parent(e.path) == path { return applyToEntry(e) }
        return applyBelowEntry(e)
    }

    /// An event at one of the rows: removed from where it stood, placed where it stands.
    private mutating func applyToEntry(_ e: Event) -> Outcome {
        let old = index(of: e.path)
        if let old {
            if let from = e.from {
                guard let p = from.position, sections[old.section].name == from.section, old.row == p - 1 else {
                    return .needsSnapshot("\(e.path) stood elsewhere than rev \(e.rev) says")
                }
            }
        } else if e.kind != "add" && e.kind != "order" {
            return e.kind == "rm"
                ? .unchanged : .needsSnapshot("rev \(e.rev) changes \(e.path), which this copy does not hold")
        }
        var new: Index?
        if e.kind != "rm" {
            guard let at = e.at, let p = at.position else {
                return .needsSnapshot("rev \(e.rev) does not say where \(e.path) stands")
            }
            guard
                let s = sections.firstIndex(where: { $0.name == at.section })
                    ?? (sections.isEmpty && at.section == nil ? 0 : nil)
            else {
                return .needsSnapshot("rev \(e.rev) places \(e.path) in a section this copy does not hold")
            }
            if sections.isEmpty { sections.append(Section(name: nil, header: nil, entries: [])) }
            let count = sections[s].entries.count - (old?.section == s ? 1 : 0)
            guard p >= 1, p <= count + 1 else {
                return .needsSnapshot("rev \(e.rev) places \(e.path) at #\(p) of \(count)")
            }
            new = Index(section: s, row: p - 1)
        }
        if let old { sections[old.section].entries.remove(at: old.row) }
        if let new {
            sections[new.section].entries.insert(
                Entry(path: e.path, value: ListReplica.rowValue(of: e), rev: e.rev), at: new.row)
        }
        return .changed(ListChange(rev: e.rev, path: e.path, from: old, to: new))
    }

    /// An event below one of the rows: a change of what it holds is a change of the row (its
    /// `rev`), and an addition or removal just under it brings its new row (`Event.parent`).
    private mutating func applyBelowEntry(_ e: Event) -> Outcome {
        let rest = e.path.dropFirst(path == "/" ? 1 : path.count + 1)
        let child = (path == "/" ? "" : path) + "/" + String(rest.prefix { $0 != "/" })
        guard ListReplica.membership.contains(e.kind), let i = index(of: child) else { return .unchanged }
        sections[i.section].entries[i.row].rev = e.rev
        if ListReplica.parent(e.path) == child, let p = e.parent {
            sections[i.section].entries[i.row].value = ListReplica.withoutRev(p)
        }
        return .changed(ListChange(rev: e.rev, path: child, from: i, to: i))
    }

    /// The rows are a setting's options.
    private var isOptions: Bool { sections.first?.entries.first?.value["type"]?.stringValue == "option" }

    /// Kinds that add, remove or move: a change of every entry above theirs.
    static let membership: Set<String> = ["add", "rm", "mv", "order", "clear", "bands"]

    private func indices() -> [(String, Index)] {
        sections.indices.flatMap { s in
            sections[s].entries.indices.map { (sections[s].entries[$0].path, Index(section: s, row: $0)) }
        }
    }

    // MARK: - As LS shows it

    /// The rows as `LS path` (FILTER all, JSON) shows them, each entry's with its `rev`, the
    /// sections' counts as held; the empty-section line left out.
    public var rows: [JSONValue] {
        var out: [JSONValue] = []
        for s in sections {
            if case .object(var pairs)? = s.header?.resolved {
                if let i = pairs.firstIndex(where: { $0.0 == "count" }) { pairs[i].1 = .int(Int64(s.entries.count)) }
                out.append(.object(pairs))
            }
            for e in s.entries {
                guard case .object(var pairs) = e.value.resolved else { out.append(e.value); continue }
                pairs.append(("rev", .int(Int64(e.rev))))
                out.append(.object(pairs))
            }
        }
        return out
    }

    // MARK: - Paths

    /// An event's value as its row: a move's value also names the position (`at` says it).
    static func rowValue(of e: Event) -> JSONValue {
        guard e.kind == "mv", case .object(let pairs) = e.value.resolved else { return withoutRev(e.value) }
        return .object(pairs.filter { $0.0 != "position" })
    }

    static func withoutRev(_ v: JSONValue) -> JSONValue {
        guard case .object(let pairs) = v.resolved else { return v }
        return .object(pairs.filter { $0.0 != "rev" })
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// Whether `path` is `prefix` or lies under it.
    static func isUnder(_ path: String, _ prefix: String) -> Bool {
        prefix == "/" || path == prefix || path.hasPrefix(prefix + "/")
    }
}
