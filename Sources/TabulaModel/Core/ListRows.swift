import TabulaProtocol

/// A row of `SHOW`: a field and its value.
func fieldRow(_ k: String, _ v: String, _ j: JSONValue) -> Row {
    Row(text: "\(k): \(v)", json: .object([("field", .string(k)), ("value", j)]))
}

/// A page for `LS` of a list of `count` entries, entry `i` named `name(i)` (at `path/name`)
/// and shown as `row(i)`: `after` names the last row of the previous page, found by
/// `position` (the list's own index where it has one). Only the page's rows are built: a
/// step costs the page, plus for a viewer with grants one check of each entry's path
/// (which it pages over: its count, its page and its "more" hint count what it sees only).
func pageReply(
    count: Int, path: String, limit: Int, after: String?, viewer: Viewer, name: (Int) -> String,
    position: (String) -> Int?, row: (Int) -> Row
) throws -> Reply {
    // A viewer whose grants take the whole list sees every entry: no path to check.
    let restricted = viewer.isRestricted && viewer.grants.map { !$0.seesAll(of: path) } ?? false
    func seen(_ i: Int) -> Bool { !restricted || viewer.sees(path + "/" + name(i)) }
    var start = 0
    if let a = after {
        guard let p = position(a.lowercased()), p < count, seen(p) else {
            throw TabulaError(.notFound, "AFTER \(a): no such name in \(path)")
        }
        start = p + 1
    }
    var rows: [Row] = []
    var i = start
    while i < count && rows.count < limit {
        if seen(i) { rows.append(row(i)) }
        i += 1
    }
    var more = false
    var j = i
    while j < count && !more {
        more = seen(j)
        j += 1
    }
    let total = restricted ? (0..<count).count(where: seen) : count
    var reply = Reply(rows: rows, message: "\(rows.count) of \(total)")
    if more, !rows.isEmpty { reply.message += "; more: LS \(path) LIMIT \(limit) AFTER \(name(i - 1))" }
    return reply
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
