import TabulaModel
import TabulaProtocol

/// The most recent events, in revision order, for `WATCH … FROM`: a ring that grows as
/// events come, up to `capacity` events and `byteCapacity` bytes of them (`Event.size`:
/// memory is spent on events held, not on the bounds), the oldest going first.
struct ChangeHistory {
    private var ring: [Event?]
    private var start = 0
    private(set) var count = 0
    /// The most events held; past it the oldest goes.
    let capacity: Int
    /// The most bytes of events held (`Event.size` summed); past it the oldest go, so that
    /// large events (a long path) cannot make the count bound a memory bound of gigabytes.
    let byteCapacity: Int
    /// Bytes of the events held.
    private(set) var bytes = 0
    /// The held events' revisions by top-level list: a replay under a list reads only its own.
    private var lists = ListIndex()

    /// Every event after this revision is held: the revision the history started at, then
    /// that of the last event to fall out.
    private var base: UInt64

    /// An empty history of the events after `revision` (the model's when the server starts).
    init(capacity: Int, byteCapacity: Int = ChangeHistory.defaultByteCapacity, after revision: UInt64 = 0) {
        self.capacity = max(1, capacity)
        self.byteCapacity = max(1, byteCapacity)
        ring = [Event?](repeating: nil, count: min(self.capacity, 1024))
        base = revision
    }

    /// The oldest revision held, or nil when empty.
    var oldest: UInt64? { count == 0 ? nil : ring[start]?.rev }

    /// The default of `byteCapacity`: 64 MiB.
    static let defaultByteCapacity = 64 << 20

    /// Moves the next event (revisions must be consecutive) into the ring, leaving in `e`
    /// the oldest event when it falls out (nil otherwise), so that the caller can free it
    /// outside any lock. Moved rather than copied: no reference counting per field.
    mutating func append(_ e: inout Event?) {
        guard let new = e.take() else { return }  // moved out, and into the ring below: never copied
        if count == ring.count && ring.count < capacity { grow() }
        bytes += new.size
        lists.add(path: new.path, rev: new.rev)
        if count == ring.count {
            if let gone = ring[start].take() {
                base = gone.rev
                bytes -= gone.size
                lists.remove(gone)
                e = consume gone
            }
            ring[start] = consume new
            start = (start + 1) % ring.count
        } else {
            ring[(start + count) % ring.count] = consume new
            count += 1
        }
        // Past the byte bound more may go (freed here, under the caller's lock: this happens
        // only when events are much larger than usual).
        while bytes > byteCapacity && count > 1 { dropOldest() }
    }

    /// Doubles the ring (up to `capacity`), its events first in order.
    private mutating func grow() {
        let bigger = min(ring.count * 2, capacity)
        if start == 0 {  // not wrapped yet (the usual case while growing): moved, not rebuilt
            ring.append(contentsOf: repeatElement(nil, count: bigger - ring.count))
            return
        }
        var next = [Event?](repeating: nil, count: bigger)
        for i in 0..<count { swap(&next[i], &ring[(start + i) % ring.count]) }
        ring = next
        start = 0
    }

    private mutating func dropOldest() {
        guard let gone = ring[start] else { return }
        ring[start] = nil
        start = (start + 1) % ring.count
        count -= 1
        base = gone.rev
        bytes -= gone.size
        lists.remove(gone)
    }

    /// Whether every event after `rev` is held (nothing newer than `rev` fell out).
    func holds(after rev: UInt64) -> Bool { rev >= base }

    /// How many held events with a revision in `(after, through]` lie under `prefix`: the
    /// events of its list (and of `/`) alone are looked at, and for a list's own path
    /// (`/settings`) none at all but `/`'s.
    func count(after: UInt64, through: UInt64, under prefix: String) -> Int {
        guard prefix != "/" else { return count(after: after, through: through) }
        let list = ModelPath.topName(of: prefix)
        if prefix.utf8.count == list.utf8.count + 1 {
            let rootRemovals = lists.revisions(after: after, through: through, list: "").filter {
                event($0)?.concerns(prefix) == true
            }.count
            return lists.count(after: after, through: through, list: list) + rootRemovals
        }
        var n = 0
        for rev in lists.revisions(after: after, through: through, list: list)
        where event(rev)?.concerns(prefix) == true { n += 1 }
        return n
    }

    /// `count` of at most `limit` events: the count, and the revision it counted through
    /// (the `limit`-th event's when it counted `limit`, else `through`), looking at the
    /// events of `prefix`'s list and of `/` alone.
    func count(after: UInt64, through: UInt64, under prefix: String, limit: Int) -> (count: Int, through: UInt64) {
        if prefix == "/" {
            let all = count(after: after, through: through)
            return all >= limit ? (limit, after + UInt64(limit)) : (all, through)  // held revisions are consecutive
        }
        // Fewer candidates than `limit` (the list's events and `/`'s, counted by position):
        // counted as they are; else walked to the `limit`-th, never past `limit` candidates
        // that concern the prefix.
        let list = ModelPath.topName(of: prefix)
        if lists.revisions(after: after, through: through, list: list).count < limit {
            return (count(after: after, through: through, under: prefix), through)
        }
        var n = 0
        for rev in lists.revisions(after: after, through: through, list: list)
        where event(rev)?.concerns(prefix) == true {
            n += 1
            if n == limit { return (n, rev) }
        }
        return (n, through)
    }

    /// Held events with a revision in `(after, through]` under `prefix`, until `limit` of
    /// them or `bytes` of their sizes: the events of its list (and of `/`) alone are looked at.
    func events(after: UInt64, through: UInt64, under prefix: String, limit: Int, bytes: Int = .max) -> [Event] {
        var out: [Event] = []
        var size = 0
        func take(_ e: Event) -> Bool {
            if e.concerns(prefix) {
                out.append(e)
                size += e.size
            }
            return out.count < limit && size < bytes
        }
        if prefix == "/" {
            forEach(after: after, through: through, take)
        } else {
            for rev in lists.revisions(after: after, through: through, list: ModelPath.topName(of: prefix)) {
                guard let e = event(rev), take(e) else { break }
            }
        }
        return out
    }

    /// How many events are held with a revision in `(after, through]`.
    private func count(after: UInt64, through: UInt64) -> Int {
        guard let first = oldest, through > after else { return 0 }
        let skip = after >= first ? Int(after - first + 1) : 0
        return max(0, min(count, Int(min(through - first + 1, UInt64(count)))) - skip)
    }

    /// The held event of revision `rev` (held revisions are consecutive).
    private func event(_ rev: UInt64) -> Event? {
        guard let first = oldest, rev >= first, rev - first < UInt64(count) else { return nil }
        return ring[(start + Int(rev - first)) % ring.count]
    }

    /// Calls `body` with each held event with a revision in `(after, through]`, oldest first,
    /// until it returns false.
    private func forEach(after: UInt64, through: UInt64, _ body: (Event) -> Bool) {
        guard let first = oldest, through > after else { return }
        let skip = after >= first ? Int(after - first + 1) : 0
        let end = min(count, Int(min(through - first + 1, UInt64(count))))
        guard skip < end else { return }
        for i in skip..<end {
            if let e = ring[(start + i) % ring.count], !body(e) { return }
        }
    }
}
