import TabulaProtocol

/// The most recent events, in revision order, for `WATCH … FROM`: a ring of fixed capacity.
struct ChangeHistory {
    private var ring: [Event?]
    private var start = 0
    private(set) var count = 0

    init(capacity: Int) { ring = [Event?](repeating: nil, count: max(1, capacity)) }

    /// The oldest revision held, or nil when empty.
    var oldest: UInt64? { count == 0 ? nil : ring[start]?.rev }

    /// Adds the next event (revisions must be consecutive); returns the oldest one when it
    /// falls out, so that the caller can free it outside any lock.
    @discardableResult
    mutating func append(_ e: Event) -> Event? {
        if count == ring.count {
            var slot: Event? = e
            swap(&slot, &ring[start])  // moves, no copy of the old event
            start = (start + 1) % ring.count
            return slot
        } else {
            ring[(start + count) % ring.count] = e
            count += 1
            return nil
        }
    }

    /// Events with revision greater than `rev`, oldest first.
    func events(after rev: UInt64) -> [Event] {
        guard let first = oldest else { return [] }
        let skip = rev >= first ? Int(rev - first + 1) : 0
        guard skip < count else { return [] }
        return (skip..<count).compactMap { ring[(start + $0) % ring.count] }
    }
}
