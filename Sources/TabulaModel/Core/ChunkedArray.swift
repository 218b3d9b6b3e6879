/// An array in fixed-size chunks: appending never moves what is already stored, so a store
/// of a million entries grows without the pause of copying itself into a bigger buffer; and
/// a copy that is then changed copies only the chunks changed (256 elements each) and the
/// list of chunks (one reference per 256 elements), not the whole array.
public struct ChunkedArray<Element: Sendable>: Sendable {
    private static var shift: Int { 8 }
    private static var chunkSize: Int { 1 << shift }
    private static var mask: Int { chunkSize - 1 }
    private var chunks: [[Element]] = []
    /// The number of elements.
    public private(set) var count = 0

    /// An empty array.
    public init() {}

    /// The element at `i` (0 ≤ i < count).
    public subscript(i: Int) -> Element {
        get { chunks[i >> Self.shift][i & Self.mask] }
        set { chunks[i >> Self.shift][i & Self.mask] = newValue }
    }

    /// Adds an element at the end.
    public mutating func append(_ e: Element) {
        if count & Self.mask == 0 {
            var chunk: [Element] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(e)
        count += 1
    }
}
