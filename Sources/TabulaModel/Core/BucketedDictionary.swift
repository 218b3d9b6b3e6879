/// A dictionary in buckets (each an ordinary dictionary), so that a copy which one write then
/// changes copies one bucket and the list of buckets, not every entry: the model's committed
/// copy of a catalog of 200,000 nodes, or of the index of a branch of 100,000 children's
/// names, costs a write about the square root of it. The buckets grow with the entries (a
/// bucket past twice their number splits them all four ways, up to `maxBuckets`), so that a
/// small dictionary is one bucket.
public struct BucketedDictionary<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    static var maxBuckets: Int { 1_024 }
    private var buckets: [[Key: Value]] = [[:]]
    /// The number of entries.
    public private(set) var count = 0

    public init() {}

    /// The bucket of `key`: the only one while there is one (no hash computed for it).
    private func bucket(_ key: Key) -> Int { buckets.count == 1 ? 0 : key.hashValue & (buckets.count - 1) }

    // Changed in place (`_modify`): `children[p]?.append(c)` and
    // `nextSuffix[p, default: [:]][s] = n` touch the value where it is stored, never a copy
    // of it (a get and a set would copy the value whole on every change).
    public subscript(key: Key) -> Value? {
        get { buckets[bucket(key)][key] }
        _modify {
            let b = bucket(key)
            let before = buckets[b].count
            yield &buckets[b][key]
            count += buckets[b].count - before
            if buckets[b].count > 2 * buckets.count { grow() }
        }
    }

    public subscript(key: Key, default value: @autoclosure () -> Value) -> Value {
        get { buckets[bucket(key)][key] ?? value() }
        _modify {
            let b = bucket(key)
            let before = buckets[b].count
            yield &buckets[b][key, default: value()]
            count += buckets[b].count - before
            if buckets[b].count > 2 * buckets.count { grow() }
        }
    }

    /// Spreads the entries over four times the buckets (O(entries), once per growth).
    private mutating func grow() {
        guard buckets.count < Self.maxBuckets else { return }
        let old = buckets
        buckets = Array(repeating: [:], count: buckets.count * 4)
        for entries in old {
            for (k, v) in entries { buckets[bucket(k)][k] = v }
        }
    }

    /// Every key, in no order.
    public var keys: [Key] { buckets.flatMap(\.keys) }
}

/// A name among the children of one branch: the key of a tree's index of names, kept for
/// every branch in one `BucketedDictionary`, so that a change to a wide branch copies one
/// bucket of it, not the branch's whole index.
public struct SiblingName: Hashable, Sendable {
    public var parent: Int
    public var name: String

    public init(_ parent: Int, _ name: String) {
        self.parent = parent
        self.name = name
    }
}
