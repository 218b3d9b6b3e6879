import Glibc
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
    /// Entries by canonical path, one table per top-level list (`Model.roots`' order), so
    /// that a change finds its table by comparing a few bytes, not by hashing its list's name.
    private var byRoot: [[String: UInt64]] = Array(repeating: [:], count: Model.roots.count)
    /// Entries of paths under no top-level list (not made by today's lists; kept exact anyway).
    private var elsewhere: [String: [String: UInt64]] = [:]

    public init(base: UInt64 = 0) { self.base = base }

    /// The revision of the last change of the entry at canonical `path`.
    public func revision(of path: String) -> UInt64 {
        if let slot = ChangeRevisions.slot(of: path) { return byRoot[slot][path] ?? base }
        return elsewhere[ChangeRevisions.root(of: path)]?[path] ?? base
    }

    /// Records a published change.
    public mutating func note(_ e: Event) {
        if let slot = ChangeRevisions.slot(of: e.path) {
            ChangeRevisions.note(e, into: &byRoot[slot], root: Model.roots[slot])
        } else {
            let root = ChangeRevisions.root(of: e.path)
            ChangeRevisions.note(e, into: &elsewhere[root, default: [:]], root: root)
        }
    }

    private static func note(_ e: Event, into entries: inout [String: UInt64], root: String) {
        let kind = Kind(e.kind)
        switch kind {
        case .remove, .clear:
            let under = e.path + "/"
            if e.path.utf8.count == root.utf8.count + 1 {
                entries.removeAll(keepingCapacity: true)
            } else {
                entries[e.path] = nil
                // Only these lists nest (a catalog branch, a setting's options, a menu
                // section): an item or an order has nothing under it to look for.
                if ChangeRevisions.nested.contains(root), entries.keys.contains(where: { $0.hasPrefix(under) }) {
                    entries = entries.filter { !$0.key.hasPrefix(under) }
                }
            }
            if kind == .clear { entries[e.path] = e.rev }
        case .membership, .other:
            entries[e.path] = e.rev
        }
        if kind != .other {
            var p = ModelPath.parent(e.path)
            while p != "/" {
                entries[p] = e.rev
                p = ModelPath.parent(p)
            }
        }
    }

    static let nested: Set<String> = ["catalog", "settings", "menu"]

    /// What a change's kind means for the revisions: `add`, `mv`, `order` and `bands` change
    /// membership (every list above is stamped too), `rm` and `clear` also forget what they
    /// remove, anything else stamps its own entry.
    private enum Kind {
        case remove, clear, membership, other
        init(_ kind: String) {  // by length first: most kinds are compared with one word, or none
            switch kind.utf8.count {
            case 2: self = kind == "rm" ? .remove : kind == "mv" ? .membership : .other
            case 3: self = kind == "add" ? .membership : .other
            case 5: self = kind == "clear" ? .clear : kind == "order" || kind == "bands" ? .membership : .other
            default: self = .other
            }
        }
    }

    /// The index in `Model.roots` of `path`'s top-level list, by its bytes.
    static func slot(of path: String) -> Int? {
        var path = path
        return path.withUTF8 { u -> Int? in
            guard u.count > 1, u[0] == UInt8(ascii: "/") else { return nil }
            var end = 1
            while end < u.count && u[end] != UInt8(ascii: "/") { end += 1 }
            return rootBytes.withUnsafeBufferPointer { roots in
                for i in roots.indices where roots[i].count == end - 1 {
                    if roots[i].withUnsafeBufferPointer({ r in memcmp(r.baseAddress!, u.baseAddress! + 1, r.count) == 0 }) { return i }
                }
                return nil
            }
        }
    }

    private static let rootBytes: [[UInt8]] = Model.roots.map { Array($0.utf8) }

    /// `settings` for `/settings/my-int`.
    static func root(of path: String) -> String {
        let u = path.utf8.dropFirst()
        return String(path[u.startIndex..<(u.firstIndex(of: UInt8(ascii: "/")) ?? u.endIndex)])
    }
}
