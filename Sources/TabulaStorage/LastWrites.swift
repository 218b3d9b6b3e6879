import TabulaModel

/// A batch's mutations less those a later one of the same batch makes moot: a put or delete
/// of a row whose key is one column, when a later put or delete of the same key follows, and
/// anything written to a table that a later `replaceAll` clears. What the batch leaves in
/// the tables is the same; a row written by every request of a group commit (a hot setting,
/// a toggled item) is written once. Order is kept; counters are always kept.
///
/// Tables keyed by more than one column are never thinned: their `delete` names only the
/// first column (every row under it), so a key does not name one row there.
enum LastWrites {
    private struct Key: Hashable {
        let table: String
        let value: StoredValue
    }

    /// The mutations that still matter, in order. `singleKey`: the tables keyed by one column.
    static func of(_ mutations: [Mutation], singleKey: Set<String>) -> [Mutation] {
        guard mutations.count > 1 else { return mutations }
        var later = Set<Key>(minimumCapacity: mutations.count)
        var clearedLater = Set<String>()
        var keep = [Bool](repeating: true, count: mutations.count)
        var skipped = 0
        for i in mutations.indices.reversed() {
            let m = mutations[i]
            let moot: Bool
            switch m.change {
            case .counter: continue
            case .replaceAll: moot = !clearedLater.insert(m.table).inserted
            case .put, .delete:
                moot =
                    clearedLater.contains(m.table)
                    || (singleKey.contains(m.table)
                        && !later.insert(Key(table: m.table, value: m.change.rowKey)).inserted)
            }
            if moot {
                keep[i] = false
                skipped += 1
            }
        }
        guard skipped > 0 else { return mutations }
        return mutations.indices.compactMap { keep[$0] ? mutations[$0] : nil }
    }
}

extension Mutation.Change {
    /// The key a put or delete names (the first column).
    fileprivate var rowKey: StoredValue {
        switch self {
        case .put(let row): return row.key
        case .delete(let key): return key
        case .replaceAll, .counter: return .int(0)
        }
    }
}
