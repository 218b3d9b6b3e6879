/// A dictionary by integer key in `bucketCount` buckets (each an ordinary dictionary), so
/// that a copy which one write then changes copies one bucket, not every entry: the model's
/// committed copy of a catalog of 200,000 nodes is then 1/1,024 of it per write, not all of
/// it. Keys are spread by their low bits (catalog ids are consecutive).
public struct BucketedDictionary<Value: Sendable>: Sendable {
    static var bucketCount: Int { 1_024 }
    private var buckets: [[Int: Value]] = Array(repeating: [:], count: BucketedDictionary.bucketCount)

    public init() {}

    private static func bucket(_ key: Int) -> Int { key & (bucketCount - 1) }

    // Changed in place (`_modify`): `nodes[p]?.children.append(c)` and
    // `bySlug[p, default: [:]][s] = c` touch the value where it is stored, never a copy of it
    // (a get and a set would copy a branch's whole index on every insert).
    public subscript(key: Int) -> Value? {
        get { buckets[Self.bucket(key)][key] }
        _modify { yield &buckets[Self.bucket(key)][key] }
    }

    public subscript(key: Int, default value: @autoclosure () -> Value) -> Value {
        get { buckets[Self.bucket(key)][key] ?? value() }
        _modify { yield &buckets[Self.bucket(key)][key, default: value()] }
    }

    /// Every value, in no order.
    public var values: [Value] { buckets.flatMap(\.values) }
}
