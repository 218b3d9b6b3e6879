import TabulaProtocol

/// The revision of each entry's last change, for `IF REV` and the `rev` that rows carry.
///
/// Kept by canonical path, per top-level list, from the events themselves, so that every
/// node of a cluster (which applies the same events) keeps the same. An entry changed since
/// the model was loaded has its own revision; any other was last changed at or before the
/// revision the model was loaded at (`base`), which is what it gets: after a restart a
/// condition older than that is refused though nothing changed it (a conflict too many,
/// never an update lost).
///
/// What a change stamps: the entry at its path; and when it adds, removes or moves
/// something (`add`, `rm`, `mv`, `order`, `clear`, `bands`), every list above that entry,
/// so that "add only if nobody else added since" compares the list's revision. A removal
/// forgets the entry and everything under it.
public struct ChangeRevisions: Sendable {
    /// What an entry not changed since the load was last changed at, at most.
    public private(set) var base: UInt64 = 0
    /// Each top-level list's revisions (`Model.roots`' order), so that a change finds its
    /// list by comparing a few bytes, not by hashing the list's name.
    private var byRoot: [ListRevisions] = Model.roots.map {
        ListRevisions(numbered: ChangeRevisions.numbered.contains($0), nested: ChangeRevisions.nested.contains($0))
    }
    /// Lists under no top-level name (not made by today's lists; kept exact anyway).
    private var elsewhere: [String: ListRevisions] = [:]

    public init(base: UInt64 = 0) { self.base = base }

    /// The revision of the last change of the entry at canonical `path`.
    public func revision(of path: String) -> UInt64 {
        if let slot = ChangeRevisions.slot(of: path) {
            return byRoot[slot].revision(of: path, root: Model.roots[slot]) ?? base
        }
        let root = ChangeRevisions.root(of: path)
        return elsewhere[root]?.revision(of: path, root: root) ?? base
    }

    /// Records a published change, found by its path (another node's, followed).
    public mutating func note(_ e: Event) {
        if let slot = ChangeRevisions.slot(of: e.path) {
            let root = Model.roots[slot]
            let number = byRoot[slot].numbered ? ChangeRevisions.number(e.path, root: root) : nil
            byRoot[slot].note(e, root: root, number: number)
        } else {
            let root = ChangeRevisions.root(of: e.path)
            elsewhere[root, default: ListRevisions()].note(e, root: root, number: nil)
        }
    }

    /// Records a change this model made, whose write found its entry: in the list at `slot`
    /// of `Model.roots`, and named directly under it by `number` where that list numbers its
    /// entries (`/items/17`: 17; nil for any other entry, or the list itself). The same as
    /// `note(_:)` of the same event, without finding its list and number from its path (a
    /// debug build checks that they are the ones its path gives).
    public mutating func note(_ e: Event, list slot: Int, number: Int?) {
        let root = Model.roots[slot]
        let number = byRoot[slot].numbered ? number : nil
        assert(ChangeRevisions.slot(of: e.path) == slot, "\(e.path) is not in \(root)")
        assert(
            number == (byRoot[slot].numbered ? ChangeRevisions.number(e.path, root: root) : nil),
            "\(e.path) is not numbered \(number.map(String.init) ?? "nil")")
        byRoot[slot].note(e, root: root, number: number)
    }

    /// One top-level list's revisions: its own, kept apart (every addition stamps it, and
    /// a dictionary update and a parent path made for it would cost more than the rest),
    /// and its entries' by canonical path.
    /// In the lists whose entries are named by a number the server gives (`/items/17`,
    /// `/orders/3`: `numbered`), those entries are kept in an array by that number (0: none),
    /// the rest by path, in buckets: a copy of the model that the engine keeps while a commit
    /// is under way then costs the chunks and the bucket a turn touches, not the whole table
    /// (a catalog branch of 100,000 children). The array is as long as the highest number
    /// given, as the list's own slots are.
    private struct ListRevisions: Sendable {
        var numbered = false
        /// Its entries hold entries (a catalog branch, a setting's options, a menu section):
        /// the paths it holds are kept as a tree too, for removals.
        var nested = false
        var list: UInt64?
        var entries = BucketedDictionary<String, UInt64>()
        var byNumber = ChunkedArray<UInt64>()
        var tree = PathTree()

        func revision(of path: String, root: String) -> UInt64? {
            if path.utf8.count == root.utf8.count + 1 { return list }
            if numbered, let n = ChangeRevisions.number(path, root: root) {
                return n < byNumber.count && byNumber[n] != 0 ? byNumber[n] : nil
            }
            return entries[path]
        }

        /// Stamps the entry at `path`, which `number` names where the list numbers its entries
        /// (nil: kept by its path).
        mutating func stamp(_ path: String, root: String, number: Int?, _ rev: UInt64?) {
            guard let n = number else {
                let before = entries.count
                entries[path] = rev
                if nested, entries.count > before { tree.insert(path, under: "/" + root) }  // a new path
                return
            }
            if n >= byNumber.count {
                guard rev != nil else { return }
                while byNumber.count <= n { byNumber.append(0) }
            }
            byNumber[n] = rev ?? 0
        }

        /// Records `e`, whose entry `number` names where the list numbers its entries.
        mutating func note(_ e: Event, root: String, number: Int?) {
            let kind = Kind(e.what)
            if e.path.utf8.count == root.utf8.count + 1 {  // the list itself
                if kind == .remove || kind == .clear {
                    entries = BucketedDictionary()
                    byNumber = ChunkedArray()
                    tree = PathTree()
                }
                list = kind == .remove ? nil : e.rev
                return
            }
            switch kind {
            case .remove, .clear:
                stamp(e.path, root: root, number: number, nil)
                // Only these lists nest (a catalog branch, a setting's options, a menu
                // section): an item or an order has nothing under it to look for. What was
                // stamped under the entry is its subtree: O(that), not O(the list's paths).
                if nested { for p in tree.remove(e.path) { entries[p] = nil } }
                if kind == .clear { stamp(e.path, root: root, number: number, e.rev) }
            case .membership, .other:
                stamp(e.path, root: root, number: number, e.rev)
            }
            guard kind != .other else { return }
            list = e.rev
            // The nested lists between the entry and the top (none for an item or an order:
            // its only slash after the list's is found without making its parent's path).
            guard e.path.utf8.dropFirst(root.utf8.count + 2).contains(UInt8(ascii: "/")) else { return }
            var p = ModelPath.parent(e.path)
            while p.utf8.count > root.utf8.count + 1 {
                stamp(p, root: root, number: numbered ? ChangeRevisions.number(p, root: root) : nil, e.rev)
                p = ModelPath.parent(p)
            }
        }
    }

    static let nested: Set<String> = ["catalog", "settings", "menu"]
    /// The lists whose entries are named by numbers the server gives, one after another.
    static let numbered: Set<String> = ["items", "orders"]

    /// What a change's kind means for the revisions: `add`, `mv`, `order` and `bands` change
    /// membership (every list above is stamped too), `rm` and `clear` also forget what they
    /// remove, anything else stamps its own entry.
    private enum Kind {
        case remove, clear, membership, other
        init(_ kind: Event.Kind) {
            switch kind {
            case .rm: self = .remove
            case .clear: self = .clear
            case .add, .mv, .order, .bands: self = .membership
            default: self = .other
            }
        }
    }

    /// The index in `Model.roots` of `path`'s top-level list, by its bytes (the roots'
    /// lengths differ, so at most one is compared byte by byte).
    static func slot(of path: String) -> Int? {
        ModelPath.withTopName(of: path) { name in
            guard !name.isEmpty else { return nil }
            for i in rootBytes.indices where ModelPath.spells(rootBytes[i], name) { return i }
            return nil
        }
    }

    private static let rootBytes: [[UInt8]] = Model.roots.map { Array($0.utf8) }

    /// The number `path` names under `root` (`/items/17` → 17), when its last segment is
    /// one of at most 9 digits, without a leading zero, directly under the list.
    static func number(_ path: String, root: String) -> Int? {
        let u = path.utf8
        let start = root.utf8.count + 2
        guard u.count > start, u.count - start <= 9 else { return nil }
        var n = 0
        for (k, b) in u.dropFirst(start).enumerated() {
            guard b >= 48 && b <= 57, k > 0 || b != 48 else { return nil }
            n = n * 10 + Int(b - 48)
        }
        return n
    }

    /// `n`, when `number(_:root:)` would read it from its decimal digits (1 to 9 digits, no
    /// leading zero): what a numbered list's entry is kept by.
    static func keptNumber(_ n: Int) -> Int? { n > 0 && n < 1_000_000_000 ? n : nil }

    /// `settings` for `/settings/my-int`.
    static func root(of path: String) -> String { String(ModelPath.topName(of: path)) }
}
