/// A handle to one element of an `OrderedList`; stable while the element is in the list.
public typealias ListHandle = Int32

/// A sequence of integer ids with O(log n) insert at a position, remove, position-of,
/// element-at, and the same for the subsequence of flagged ("favourite") elements.
///
/// An implicit treap kept in parallel arrays (no per-node objects), with parent links so
/// that an element's position is found from its handle by walking up.
public struct OrderedList: Sendable {
    private var left: [Int32] = []
    private var right: [Int32] = []
    private var parent: [Int32] = []
    private var prio: [UInt32] = []
    private var size: [Int32] = []
    private var flagged: [Int32] = []
    private var isFlagged: [Bool] = []
    private var ids: [Int] = []
    private var free: [Int32] = []
    private var root: Int32 = -1
    private var seed: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// An empty list.
    public init() {}

    /// The number of elements.
    public var count: Int { root < 0 ? 0 : Int(size[Int(root)]) }
    /// The number of flagged elements.
    public var flaggedCount: Int { root < 0 ? 0 : Int(flagged[Int(root)]) }

    /// The id held by `h`.
    public func id(_ h: ListHandle) -> Int { ids[Int(h)] }
    /// Whether `h` is flagged.
    public func isFlagged(_ h: ListHandle) -> Bool { isFlagged[Int(h)] }

    private mutating func nextPriority() -> UInt32 {
        seed &+= 0x9E37_79B9_7F4A_7C15
        var z = seed
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return UInt32(truncatingIfNeeded: z ^ (z >> 31))
    }

    private func sz(_ n: Int32) -> Int32 { n < 0 ? 0 : size[Int(n)] }
    private func fc(_ n: Int32) -> Int32 { n < 0 ? 0 : flagged[Int(n)] }

    private mutating func update(_ n: Int32) {
        let i = Int(n)
        size[i] = 1 + sz(left[i]) + sz(right[i])
        flagged[i] = (isFlagged[i] ? 1 : 0) + fc(left[i]) + fc(right[i])
    }

    /// Splits `t` into the first `k` elements and the rest.
    private mutating func split(_ t: Int32, _ k: Int32) -> (Int32, Int32) {
        if t < 0 { return (-1, -1) }
        let i = Int(t)
        if sz(left[i]) >= k {
            let (a, b) = split(left[i], k)
            left[i] = b
            if b >= 0 { parent[Int(b)] = t }
            if a >= 0 { parent[Int(a)] = -1 }
            update(t)
            return (a, t)
        } else {
            let (a, b) = split(right[i], k - sz(left[i]) - 1)
            right[i] = a
            if a >= 0 { parent[Int(a)] = t }
            if b >= 0 { parent[Int(b)] = -1 }
            update(t)
            return (t, b)
        }
    }

    private mutating func merge(_ a: Int32, _ b: Int32) -> Int32 {
        if a < 0 { return b }
        if b < 0 { return a }
        if prio[Int(a)] > prio[Int(b)] {
            let r = merge(right[Int(a)], b)
            right[Int(a)] = r
            parent[Int(r)] = a
            update(a)
            return a
        } else {
            let l = merge(a, left[Int(b)])
            left[Int(b)] = l
            parent[Int(l)] = b
            update(b)
            return b
        }
    }

    private mutating func newNode(_ id: Int, flagged f: Bool) -> Int32 {
        let p = nextPriority()
        if let n = free.popLast() {
            let i = Int(n)
            left[i] = -1; right[i] = -1; parent[i] = -1; prio[i] = p; size[i] = 1
            flagged[i] = f ? 1 : 0; isFlagged[i] = f; ids[i] = id
            return n
        }
        left.append(-1); right.append(-1); parent.append(-1); prio.append(p); size.append(1)
        flagged.append(f ? 1 : 0); isFlagged.append(f); ids.append(id)
        return Int32(ids.count - 1)
    }

    /// Inserts `id` so that it ends up at 0-based `position` (clamped to 0…count).
    @discardableResult
    public mutating func insert(_ id: Int, at position: Int, flagged f: Bool = false) -> ListHandle {
        let n = newNode(id, flagged: f)
        let p = Int32(max(0, min(position, count)))
        let (a, b) = split(root, p)
        root = merge(merge(a, n), b)
        parent[Int(root)] = -1
        return n
    }

    /// Appends `id` at the end.
    @discardableResult
    public mutating func append(_ id: Int, flagged f: Bool = false) -> ListHandle {
        insert(id, at: count, flagged: f)
    }

    /// Removes the element at `h`; `h` must not be used again.
    public mutating func remove(_ h: ListHandle) {
        let i = Int(h)
        let m = merge(left[i], right[i])
        let p = parent[i]
        if m >= 0 { parent[Int(m)] = p }
        if p < 0 {
            root = m
        } else {
            if left[Int(p)] == h { left[Int(p)] = m } else { right[Int(p)] = m }
            var up = p
            while up >= 0 {
                update(up)
                up = parent[Int(up)]
            }
        }
        left[i] = -1; right[i] = -1; parent[i] = -1
        free.append(h)
    }

    /// Moves the element at `h` to 0-based `position`; returns its new handle.
    public mutating func move(_ h: ListHandle, to position: Int) -> ListHandle {
        let id = ids[Int(h)], f = isFlagged[Int(h)]
        remove(h)
        return insert(id, at: position, flagged: f)
    }

    /// Sets or clears the flag of `h`.
    public mutating func setFlag(_ h: ListHandle, _ f: Bool) {
        guard isFlagged[Int(h)] != f else { return }
        isFlagged[Int(h)] = f
        var up = h
        while up >= 0 {
            update(up)
            up = parent[Int(up)]
        }
    }

    /// The 0-based position of `h`.
    public func position(_ h: ListHandle) -> Int {
        var pos = sz(left[Int(h)])
        var n = h
        while parent[Int(n)] >= 0 {
            let p = parent[Int(n)]
            if right[Int(p)] == n { pos += sz(left[Int(p)]) + 1 }
            n = p
        }
        return Int(pos)
    }

    /// The number of flagged elements before `h`.
    public func flaggedBefore(_ h: ListHandle) -> Int {
        var c = fc(left[Int(h)])
        var n = h
        while parent[Int(n)] >= 0 {
            let p = parent[Int(n)]
            if right[Int(p)] == n { c += fc(left[Int(p)]) + (isFlagged[Int(p)] ? 1 : 0) }
            n = p
        }
        return Int(c)
    }

    /// The handle at 0-based `position`, or nil past the end.
    public func handle(at position: Int) -> ListHandle? {
        guard position >= 0, position < count else { return nil }
        var n = root
        var k = Int32(position)
        while n >= 0 {
            let ls = sz(left[Int(n)])
            if k < ls { n = left[Int(n)] } else if k == ls { return n } else { k -= ls + 1; n = right[Int(n)] }
        }
        return nil
    }

    /// The handle of the flagged element with `rank` flagged elements before it, or nil.
    public func flaggedHandle(rank: Int) -> ListHandle? {
        guard rank >= 0, rank < flaggedCount else { return nil }
        var n = root
        var k = Int32(rank)
        while n >= 0 {
            let i = Int(n)
            let lf = fc(left[i])
            if k < lf { n = left[i]; continue }
            k -= lf
            if isFlagged[i] {
                if k == 0 { return n }
                k -= 1
            }
            n = right[i]
        }
        return nil
    }

    /// The element after `h` in order, or nil at the end.
    public func successor(_ h: ListHandle) -> ListHandle? {
        var n = right[Int(h)]
        if n >= 0 {
            while left[Int(n)] >= 0 { n = left[Int(n)] }
            return n
        }
        var c = h
        var p = parent[Int(c)]
        while p >= 0 && right[Int(p)] == c {
            c = p
            p = parent[Int(p)]
        }
        return p >= 0 ? p : nil
    }

    /// The first element, or nil when empty.
    public var first: ListHandle? { handle(at: 0) }
    /// The last element, or nil when empty.
    public var last: ListHandle? { handle(at: count - 1) }

    /// Up to `limit` ids starting at 0-based `position`; with `flaggedOnly`, `position` counts flagged elements.
    public func page(from position: Int, limit: Int, flaggedOnly: Bool = false) -> [ListHandle] {
        var out: [ListHandle] = []
        out.reserveCapacity(min(limit, 1024))
        if flaggedOnly {
            var r = position
            while out.count < limit, let h = flaggedHandle(rank: r) {
                out.append(h)
                r += 1
            }
            return out
        }
        var h = handle(at: position)
        while out.count < limit, let cur = h {
            out.append(cur)
            h = successor(cur)
        }
        return out
    }

    /// All handles in order.
    public var allHandles: [ListHandle] { page(from: 0, limit: count) }
}
