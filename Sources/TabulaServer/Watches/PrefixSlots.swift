/// The watched prefixes, counted in 4,096 slots by their bytes' FNV-1a hash, so that the
/// prefixes of an event's path that nobody watches (most levels of most paths) are passed
/// over on the bytes: never made into a `String`, never hashed as one, never looked up.
/// A slot shared by two prefixes only lets both through to the exact lookup. Prefixes are
/// told apart by their bytes, as `WatchHub` keeps them (`PathBytes`), whatever the bytes.
struct PrefixSlots {
    private var counts = [UInt32](repeating: 0, count: PrefixSlots.slotCount)

    static let slotCount = 4_096

    /// Counts a newly watched prefix.
    mutating func insert(_ prefix: String) { counts[PrefixSlots.slot(of: prefix)] += 1 }

    /// Forgets a prefix nobody watches any more.
    mutating func remove(_ prefix: String) {
        let s = PrefixSlots.slot(of: prefix)
        assert(counts[s] > 0, "PrefixSlots: \(prefix) removed more often than inserted")
        if counts[s] > 0 { counts[s] -= 1 }
    }

    /// Calls `body` with each prefix of `path` (as `WatchHub.forEachPrefix` gives them: `/`,
    /// then each one ending at a segment boundary, `path` itself last) whose slot holds a
    /// watched prefix: a superset of the watched ones among them.
    func forEachCandidate(of path: String, _ body: (String) -> Void) {
        if counts[PrefixSlots.rootSlot] > 0 { body("/") }
        let u = path.utf8
        guard u.count > 1 || (u.count == 1 && u.first != PrefixSlots.slash) else { return }
        var h = PrefixSlots.basis
        var i = u.startIndex
        if u[i] == PrefixSlots.slash {  // the leading slash belongs to every prefix
            h = PrefixSlots.mix(h, PrefixSlots.slash)
            i = u.index(after: i)
        }
        while i < u.endIndex {
            let b = u[i]
            if b == PrefixSlots.slash, counts[PrefixSlots.slot(h)] > 0 {
                body(String(decoding: u[..<i], as: UTF8.self))
            }
            h = PrefixSlots.mix(h, b)
            i = u.index(after: i)
        }
        if counts[PrefixSlots.slot(h)] > 0 { body(path) }
    }

    private static let slash = UInt8(ascii: "/")
    private static let basis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let rootSlot = slot(of: "/")

    @inline(__always) private static func mix(_ h: UInt64, _ b: UInt8) -> UInt64 { (h ^ UInt64(b)) &* 0x100_0000_01b3 }

    @inline(__always) private static func slot(_ h: UInt64) -> Int { Int(truncatingIfNeeded: (h ^ (h >> 29)) & 4_095) }

    /// The slot of a prefix.
    static func slot(of prefix: String) -> Int {
        var h = basis
        for b in prefix.utf8 { h = mix(h, b) }
        return slot(h)
    }
}
