/// A handle to one element of an `OrderedList`; stable while the element is in the list.
public typealias ListHandle = Int32

/// A sequence of integer ids with O(log n) insert at a position, remove, position-of,
/// element-at, and the same for the subsequence of flagged ("favourite") elements.
///
/// An implicit treap whose nodes sit in a chunked array (no per-node objects, and growth
/// never copies), with parent links so that an element's position is found from its handle.
public struct OrderedList: Sendable {
    struct Node: Sendable {
        var left: Int32 = -1
        var right: Int32 = -1
        var parent: Int32 = -1
        var prio: UInt32 = 0
        var size: Int32 = 1
        var flaggedCount: Int32 = 0
        var flagged = false
        var id = 0
    }

    private var nodes = ChunkedArray<Node>()
    private var free: [Int32] = []
    private var root: Int32 = -1
    private var seed: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// An empty list.
    public init() {}

    /// The number of elements.
    public var count: Int { root < 0 ? 0 : Int(nodes[Int(root)].size) }
    /// The number of flagged elements.
    public var flaggedCount: Int { root < 0 ? 0 : Int(nodes[Int(root)].flaggedCount) }

    /// The id held by `h`.
    public func id(_ h: ListHandle) -> Int { nodes[Int(h)].id }

    private mutating func nextPriority() -> UInt32 {
        seed &+= 0x9E37_79B9_7F4A_7C15
        var z = seed
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return UInt32(truncatingIfNeeded: z ^ (z >> 31))
    }

    private func sz(_ n: Int32) -> Int32 { n < 0 ? 0 : nodes[Int(n)].size }
    private func fc(_ n: Int32) -> Int32 { n < 0 ? 0 : nodes[Int(n)].flaggedCount }
    private func left(_ n: Int32) -> Int32 { nodes[Int(n)].left }
    private func right(_ n: Int32) -> Int32 { nodes[Int(n)].right }
    private func parent(_ n: Int32) -> Int32 { nodes[Int(n)].parent }

    private mutating func update(_ n: Int32) {
        let i = Int(n)
        let l = nodes[i].left, r = nodes[i].right
        nodes[i].size = 1 + sz(l) + sz(r)
        nodes[i].flaggedCount = (nodes[i].flagged ? 1 : 0) + fc(l) + fc(r)
    }

    private mutating func setParent(_ n: Int32, _ p: Int32) {
        if n >= 0 { nodes[Int(n)].parent = p }
    }

    /// Splits `t` into the first `k` elements and the rest.
    private mutating func split(_ t: Int32, _ k: Int32) -> (Int32, Int32) {
        if t < 0 { return (-1, -1) }
        if sz(left(t)) >= k {
            let (a, b) = split(left(t), k)
            nodes[Int(t)].left = b
            setParent(b, t)
            setParent(a, -1)
            update(t)
            return (a, t)
        } else {
            let (a, b) = split(right(t), k - sz(left(t)) - 1)
            nodes[Int(t)].right = a
            setParent(a, t)
            setParent(b, -1)
            update(t)
            return (t, b)
        }
    }

    private mutating func merge(_ a: Int32, _ b: Int32) -> Int32 {
        if a < 0 { return b }
        if b < 0 { return a }
        if nodes[Int(a)].prio > nodes[Int(b)].prio {
            let r = merge(right(a), b)
            nodes[Int(a)].right = r
            setParent(r, a)
            update(a)
            return a
        } else {
            let l = merge(a, left(b))
            nodes[Int(b)].left = l
            setParent(l, b)
            update(b)
            return b
        }
    }

    private mutating func newNode(_ id: Int, flagged f: Bool) -> Int32 {
        let node = Node(prio: nextPriority(), flaggedCount: f ? 1 : 0, flagged: f, id: id)
        if let n = free.popLast() {
            nodes[Int(n)] = node
            return n
        }
        nodes.append(node)
        return Int32(nodes.count - 1)
    }

    /// Inserts `id` so that it ends up at 0-based `position` (clamped to 0…count).
    @discardableResult
    public mutating func insert(_ id: Int, at position: Int, flagged f: Bool = false) -> ListHandle {
        let n = newNode(id, flagged: f)
        let p = Int32(max(0, min(position, count)))
        let (a, b) = split(root, p)
        root = merge(merge(a, n), b)
        setParent(root, -1)
        return n
    }

    /// Appends `id` at the end.
    @discardableResult
    public mutating func append(_ id: Int, flagged f: Bool = false) -> ListHandle {
        // `insert(at: count)` without its split, which would walk the whole right spine to
        // cut off nothing: the new node goes down that spine only as far as its priority
        // puts it, each node passed gaining one element, and takes the rest as its left.
        let n = newNode(id, flagged: f)
        let add: Int32 = f ? 1 : 0
        var above: Int32 = -1
        var at = root
        while at >= 0 && nodes[Int(at)].prio > nodes[Int(n)].prio {
            nodes[Int(at)].size += 1
            nodes[Int(at)].flaggedCount += add
            above = at
            at = nodes[Int(at)].right
        }
        nodes[Int(n)].left = at
        setParent(at, n)
        update(n)
        if above < 0 { root = n } else { nodes[Int(above)].right = n }
        nodes[Int(n)].parent = above
        return n
    }

    /// Removes the element at `h`; `h` must not be used again.
    public mutating func remove(_ h: ListHandle) {
        let m = merge(left(h), right(h))
        let p = parent(h)
        setParent(m, p)
        if p < 0 {
            root = m
        } else {
            if left(p) == h { nodes[Int(p)].left = m } else { nodes[Int(p)].right = m }
            var up = p
            while up >= 0 {
                update(up)
                up = parent(up)
            }
        }
        nodes[Int(h)].left = -1
        nodes[Int(h)].right = -1
        nodes[Int(h)].parent = -1
        free.append(h)
    }

    /// Moves the element at `h` to 0-based `position`; returns its new handle.
    public mutating func move(_ h: ListHandle, to position: Int) -> ListHandle {
        let id = nodes[Int(h)].id, f = nodes[Int(h)].flagged
        remove(h)
        return insert(id, at: position, flagged: f)
    }

    /// Sets or clears the flag of `h`.
    public mutating func setFlag(_ h: ListHandle, _ f: Bool) {
        guard nodes[Int(h)].flagged != f else { return }
        nodes[Int(h)].flagged = f
        var up = h
        while up >= 0 {
            update(up)
            up = parent(up)
        }
    }

    /// The 0-based position of `h`.
    public func position(_ h: ListHandle) -> Int {
        var pos = sz(left(h))
        var n = h
        while parent(n) >= 0 {
            let p = parent(n)
            if right(p) == n { pos += sz(left(p)) + 1 }
            n = p
        }
        return Int(pos)
    }

    /// The number of flagged elements before `h`.
    public func flaggedBefore(_ h: ListHandle) -> Int {
        var c = fc(left(h))
        var n = h
        while parent(n) >= 0 {
            let p = parent(n)
            if right(p) == n { c += fc(left(p)) + (nodes[Int(p)].flagged ? 1 : 0) }
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
            let ls = sz(left(n))
            if k < ls { n = left(n) } else if k == ls { return n } else { k -= ls + 1; n = right(n) }
        }
        return nil
    }

    /// The handle of the flagged element with `rank` flagged elements before it, or nil.
    public func flaggedHandle(rank: Int) -> ListHandle? {
        guard rank >= 0, rank < flaggedCount else { return nil }
        var n = root
        var k = Int32(rank)
        while n >= 0 {
            let lf = fc(left(n))
            if k < lf { n = left(n); continue }
            k -= lf
            if nodes[Int(n)].flagged {
                if k == 0 { return n }
                k -= 1
            }
            n = right(n)
        }
        return nil
    }

    /// The element after `h` in order, or nil at the end.
    public func successor(_ h: ListHandle) -> ListHandle? {
        var n = right(h)
        if n >= 0 {
            while left(n) >= 0 { n = left(n) }
            return n
        }
        var c = h
        var p = parent(c)
        while p >= 0 && right(p) == c {
            c = p
            p = parent(p)
        }
        return p >= 0 ? p : nil
    }

    /// How many elements hold an id below `id`, in a list whose ids ascend from first to
    /// last (an order list, where ids are appended in order): one walk down, O(log n).
    public func countBelow(_ id: Int) -> Int {
        var c: Int32 = 0
        var n = root
        while n >= 0 {
            if nodes[Int(n)].id < id {
                c += sz(left(n)) + 1
                n = right(n)
            } else {
                n = left(n)
            }
        }
        return Int(c)
    }

    /// The handles from 0-based `position` to the end, in order, found as they are read: the
    /// first in O(log n), each next in O(1) amortised.
    public func handles(from position: Int) -> UnfoldSequence<ListHandle, ListHandle?> {
        sequence(state: handle(at: position)) { (at: inout ListHandle?) -> ListHandle? in
            guard let h = at else { return nil }
            at = successor(h)
            return h
        }
    }

    /// Up to `limit` handles starting at 0-based `position`; with `flaggedOnly`, `position` counts flagged elements.
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
