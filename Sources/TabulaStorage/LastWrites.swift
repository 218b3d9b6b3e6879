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
            let key: StoredValue
            switch m.change {
            case .counter: continue
            case .replaceAll:
                if clearedLater.contains(m.table) {
                    keep[i] = false
                    skipped += 1
                }
                clearedLater.insert(m.table)
                continue
            case .put(let row):
                if clearedLater.contains(m.table) {
                    keep[i] = false
                    skipped += 1
                    continue
                }
                guard singleKey.contains(m.table) else { continue }
                key = row.key
            case .delete(let k):
                if clearedLater.contains(m.table) {
                    keep[i] = false
                    skipped += 1
                    continue
                }
                guard singleKey.contains(m.table) else { continue }
                key = k
            }
            if !later.insert(Key(table: m.table, value: key)).inserted {
                keep[i] = false
                skipped += 1
            }
        }
        guard skipped > 0 else { return mutations }
        return mutations.indices.compactMap { keep[$0] ? mutations[$0] : nil }
    }
}
