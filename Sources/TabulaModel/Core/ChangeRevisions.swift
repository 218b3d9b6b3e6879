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
    private var byRoot: [String: [String: UInt64]] = [:]

    public init(base: UInt64 = 0) { self.base = base }

    /// The revision of the last change of the entry at canonical `path`.
    public func revision(of path: String) -> UInt64 {
        byRoot[ChangeRevisions.root(of: path)]?[path] ?? base
    }

    /// Records a published change.
    public mutating func note(_ e: Event) {
        let root = ChangeRevisions.root(of: e.path)
        var entries = byRoot.removeValue(forKey: root) ?? [:]  // changed in place, not copied
        switch e.kind {
        case "rm", "clear":
            let under = e.path + "/"
            if e.path == "/" + root {
                entries.removeAll(keepingCapacity: true)
            } else {
                entries[e.path] = nil
                // Only these lists nest (a catalog branch, a setting's options, a menu
                // section): an item or an order has nothing under it to look for.
                if ChangeRevisions.nested.contains(root), entries.keys.contains(where: { $0.hasPrefix(under) }) {
                    entries = entries.filter { !$0.key.hasPrefix(under) }
                }
            }
            if e.kind == "clear" { entries[e.path] = e.rev }
        default:
            entries[e.path] = e.rev
        }
        if ChangeRevisions.changesMembership(e.kind) {
            var p = ModelPath.parent(e.path)
            while p != "/" {
                entries[p] = e.rev
                p = ModelPath.parent(p)
            }
        }
        byRoot[root] = entries
    }

    static let nested: Set<String> = ["catalog", "settings", "menu"]

    static func changesMembership(_ kind: String) -> Bool {
        ["add", "rm", "mv", "order", "clear", "bands"].contains(kind)
    }

    /// `settings` for `/settings/my-int`.
    static func root(of path: String) -> String {
        let u = path.utf8.dropFirst()
        return String(path[u.startIndex..<(u.firstIndex(of: UInt8(ascii: "/")) ?? u.endIndex)])
    }
}
