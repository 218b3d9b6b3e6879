import TabulaProtocol

/// A row of `SHOW`: a field and its value.
func fieldRow(_ k: String, _ v: String, _ j: JSONValue) -> Row {
    Row(text: "\(k): \(v)", json: .object([("field", .string(k)), ("value", j)]))
}

/// A page of `all` for `LS`: `after` names the last row of the previous page. A viewer with
/// grants pages over the rows it sees only (their count, the page and its "more" hint).
func pageReply<T>(
    _ every: [T], path: String, limit: Int, after: String?, viewer: Viewer, name: (T) -> String, row: (T) -> Row
) throws -> Reply {
    let all = viewer.isRestricted ? every.filter { row($0).path.map { viewer.sees($0.string) } ?? true } : every
    var start = 0
    if let a = after {
        let lower = a.lowercased()
        guard let i = all.firstIndex(where: { name($0) == lower }) else {
            throw TabulaError(.notFound, "AFTER \(a): no such name in \(path)")
        }
        start = i + 1
    }
    let slice = all[min(start, all.count)..<min(start + limit, all.count)]
    var reply = Reply(rows: slice.map(row), message: "\(slice.count) of \(all.count)")
    if start + limit < all.count, let last = slice.last {
        reply.message += "; more: LS \(path) LIMIT \(limit) AFTER \(name(last))"
    }
    return reply
}

/// Lower-cases `name` only when it has upper-case ASCII (the common case allocates nothing).
func folded(_ name: String) -> String {
    name.utf8.contains { $0 >= 65 && $0 <= 90 } ? name.lowercased() : name
}
