import TabulaProtocol

/// A row of `SHOW`: a field and its value.
func fieldRow(_ k: String, _ v: String, _ j: JSONValue) -> Row {
    Row(text: "\(k): \(v)", json: .object([("field", .string(k)), ("value", j)]))
}

/// A page for `LS` of a list of `count` entries, entry `i` named `name(i)` (at `path/name`)
/// and shown as `row(i)`: `after` names the last row of the previous page, found by
/// `position` (the list's own index where it has one). Only the page's rows are built: a
/// step costs the page, plus for a viewer with grants O(prefixes) lookups (`ChildGrants`):
/// its count, its page and its "more" hint count what it sees only.
func pageReply(
    count: Int, path: String, limit: Int, after: String?, viewer: Viewer, name: (Int) -> String,
    position: (String) -> Int?, row: (Int) -> Row
) throws -> Reply {
    let shown = ShownChildren(count: count, path: path, viewer: viewer, name: name, position: position)
    var start = 0
    if let a = after {
        guard let p = position(a.lowercased()), p < count, shown.contains(p) else {
            throw TabulaError(.notFound, "AFTER \(a): no such name in \(path)")
        }
        start = p + 1
    }
    var rows: [Row] = []
    var next = shown.first(from: start)
    var last = start - 1
    while let i = next, rows.count < limit {
        rows.append(row(i))
        last = i
        next = shown.first(from: i + 1)
    }
    var reply = Reply(rows: rows, message: "\(rows.count) of \(shown.total)")
    if next != nil, !rows.isEmpty { reply.message += "; more: LS \(path) LIMIT \(limit) AFTER \(name(last))" }
    return reply
}

/// Which entries of a list a viewer is shown, by position: all of them, all but a few, or
/// only a few (the few are those its grants' prefixes name: `ChildGrants`).
struct ShownChildren {
    let count: Int
    /// The positions whose visibility differs from the default, ascending.
    private let differing: [Int]
    private let byDefault: Bool

    init(count: Int, path: String, viewer: Viewer, name: (Int) -> String, position: (String) -> Int?) {
        self.count = count
        // A viewer whose grants take the whole list sees every entry: nothing to look up.
        guard viewer.isRestricted, let grants = viewer.grants, !grants.seesAll(of: path) else {
            (differing, byDefault) = ([], true)
            return
        }
        let children = ChildGrants(grants, list: path)
        byDefault = children.shownByDefault
        differing = children.exceptions.compactMap { n in
            position(n).flatMap { $0 < count && name($0) == n ? $0 : nil }
        }.sorted()
    }

    func contains(_ i: Int) -> Bool {
        let at = firstDiffering(from: i)
        return i >= 0 && i < count && (at < differing.count && differing[at] == i) != byDefault
    }

    /// How many are shown.
    var total: Int { byDefault ? count - differing.count : differing.count }

    /// How many are shown before position `i`.
    func shownBefore(_ i: Int) -> Int {
        let differingBefore = firstDiffering(from: i)
        return byDefault ? i - differingBefore : differingBefore
    }

    /// The first shown position at or after `i`, or nil.
    func first(from i: Int) -> Int? {
        var at = firstDiffering(from: i)
        guard byDefault else { return at < differing.count ? differing[at] : nil }
        var k = i
        while at < differing.count, differing[at] == k {  // one step per hidden entry in a row
            k += 1
            at += 1
        }
        return k < count ? k : nil
    }

    /// The index in `differing` of the first position at or after `i` (binary search).
    private func firstDiffering(from i: Int) -> Int {
        var (lo, hi) = (0, differing.count)
        while lo < hi {
            let mid = (lo + hi) / 2
            if differing[mid] < i { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}

/// `pageReply` over `every`, whose position of a name is found by a scan of the names (no
/// row built): for short lists without an index of their own.
func pageReply<T>(
    _ every: [T], path: String, limit: Int, after: String?, viewer: Viewer, name: (T) -> String, row: (T) -> Row
) throws -> Reply {
    try pageReply(
        count: every.count, path: path, limit: limit, after: after, viewer: viewer, name: { name(every[$0]) },
        position: { n in every.firstIndex { name($0) == n } }, row: { row(every[$0]) })
}

/// Lower-cases `name` only when it has upper-case ASCII (the common case allocates nothing).
func folded(_ name: String) -> String {
    name.utf8.contains { $0 >= 65 && $0 <= 90 } ? name.lowercased() : name
}
