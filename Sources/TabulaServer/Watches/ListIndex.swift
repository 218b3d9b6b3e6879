import TabulaModel
import TabulaProtocol

/// The revisions of the retained events by top-level list (`settings`, `items`, …; "" for an
/// event at `/`), oldest first: what lets a replay of `/settings` look only at the events of
/// `/settings` (and of `/`, whose removals concern everything), however many changes other
/// lists made meanwhile. Kept by `ChangeHistory` as events come and fall out; a handful of
/// lists, so a lookup is a short scan with no allocation.
struct ListIndex {
    /// Each list's revisions; `head` of them fell out already (dropped in bulk now and then).
    private struct Queue {
        let list: String
        /// `list`'s bytes, which a change's path is compared with.
        let bytes: [UInt8]
        var revs: [UInt64] = []
        var head = 0

        /// The positions of the revisions in `(after, through]`.
        func range(after: UInt64, through: UInt64) -> Range<Int> {
            lowerBound(after + 1)..<lowerBound(through &+ 1 == 0 ? .max : through + 1)
        }

        private func lowerBound(_ rev: UInt64) -> Int {
            var lo = head, hi = revs.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if revs[mid] < rev { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
    }

    private var queues: [Queue] = []

    private func slot(_ list: Substring) -> Int? { queues.firstIndex { $0.list == list } }

    /// The slot of the list `path` lies in, found by comparing bytes (every change passes
    /// here twice, as it comes and as it falls out: no substring, no string comparison).
    private func slot(ofPath path: String) -> Int? {
        ModelPath.withTopName(of: path) { name in
            for i in queues.indices where ModelPath.spells(queues[i].bytes, name) { return i }
            return nil
        }
    }

    /// A change at `path` made revision `rev` (the newest held).
    mutating func add(path: String, rev: UInt64) {
        if let i = slot(ofPath: path) {
            queues[i].revs.append(rev)
        } else {
            let list = String(ModelPath.topName(of: path))
            queues.append(Queue(list: list, bytes: Array(list.utf8), revs: [rev]))
        }
    }

    /// The oldest retained event fell out (it is the first of its list).
    mutating func remove(_ e: Event) {
        guard let i = slot(ofPath: e.path), queues[i].head < queues[i].revs.count else { return }
        queues[i].head += 1
        if queues[i].head >= 4096 && queues[i].head * 2 >= queues[i].revs.count {
            queues[i].revs.removeFirst(queues[i].head)
            queues[i].head = 0
        }
    }

    /// The revisions in `(after, through]` of the events in `list` and at `/`, in order.
    func revisions(after: UInt64, through: UInt64, list: Substring) -> MergedRevisions {
        let own = slot(list).map { (queues[$0].revs, queues[$0].range(after: after, through: through)) } ?? ([], 0..<0)
        let root =
            list.isEmpty
            ? ([], 0..<0)
            : slot("").map { (queues[$0].revs, queues[$0].range(after: after, through: through)) } ?? ([], 0..<0)
        return MergedRevisions(a: own.0, ra: own.1, b: root.0, rb: root.1)
    }

    /// How many events of `list` alone are in `(after, through]`.
    func count(after: UInt64, through: UInt64, list: Substring) -> Int {
        slot(list).map { queues[$0].range(after: after, through: through).count } ?? 0
    }
}

/// Two ascending runs of revisions, read as one ascending run.
struct MergedRevisions: Sequence, IteratorProtocol {
    let a: [UInt64]
    var ra: Range<Int>
    let b: [UInt64]
    var rb: Range<Int>

    var count: Int { ra.count + rb.count }

    mutating func next() -> UInt64? {
        switch (ra.isEmpty, rb.isEmpty) {
        case (true, true): return nil
        case (false, true): return a[ra.popFirst()!]
        case (true, false): return b[rb.popFirst()!]
        case (false, false): return a[ra.first!] < b[rb.first!] ? a[ra.popFirst()!] : b[rb.popFirst()!]
        }
    }
}
