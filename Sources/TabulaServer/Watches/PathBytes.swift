import Glibc

/// A path, or one segment of it, compared and hashed by its bytes, as the model's paths are
/// matched everywhere else (`ModelPath.isUnder`, the grants, the stores' SQL): `café` composed
/// and `cafe` with a combining accent are two paths, where two `String`s would be equal.
/// Watches are kept by it, so that a live event reaches exactly the watches a replay of the
/// same history would.
struct PathBytes: Hashable, Sendable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (a: PathBytes, b: PathBytes) -> Bool {
        let x = a.text.utf8, y = b.text.utf8
        guard x.count == y.count else { return false }
        let fast = x.withContiguousStorageIfAvailable { p in
            y.withContiguousStorageIfAvailable { q in p.isEmpty || memcmp(p.baseAddress!, q.baseAddress!, p.count) == 0
            }
        }
        return (fast ?? nil) ?? x.elementsEqual(y)
    }

    func hash(into h: inout Hasher) {
        let u = text.utf8
        let done: Bool? = u.withContiguousStorageIfAvailable {
            h.combine(bytes: UnsafeRawBufferPointer($0))
            return true
        }
        if done == nil { Array(u).withUnsafeBytes { h.combine(bytes: $0) } }
        h.combine(u.count)
    }
}
