import TabulaProtocol

/// The most recent events, in revision order, for `WATCH … FROM`: a ring that grows as
/// events come, up to `capacity` (memory is spent on events held, not on the bound).
struct ChangeHistory {
    private var ring: [Event?]
    private var start = 0
    private(set) var count = 0
    /// The most events held; past it the oldest goes.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        ring = [Event?](repeating: nil, count: min(self.capacity, 1024))
    }

    /// The oldest revision held, or nil when empty.
    var oldest: UInt64? { count == 0 ? nil : ring[start]?.rev }

    /// Moves the next event (revisions must be consecutive) into the ring, leaving in `e`
    /// the oldest event when it falls out (nil otherwise), so that the caller can free it
    /// outside any lock. Swapping rather than copying: no reference counting per field.
    mutating func append(_ e: inout Event?) {
        if count == ring.count && ring.count < capacity {
            // Not yet wrapped (that happens only at capacity), so the ring starts at 0.
            ring.append(contentsOf: repeatElement(nil, count: min(ring.count, capacity - ring.count)))
        }
        if count == ring.count {
            swap(&e, &ring[start])
            start = (start + 1) % ring.count
        } else {
            swap(&e, &ring[(start + count) % ring.count])
            count += 1
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
