/// The watched prefixes, counted in 4,096 slots by their bytes' FNV-1a hash, so that the
/// prefixes of an event's path that nobody watches (most levels of most paths) are passed
/// over on the bytes: never made into a `String`, never hashed as one, never looked up.
/// A slot shared by two prefixes only lets both through to the exact lookup.
///
/// Only ASCII is matched on bytes: `String`s are equal when canonically equivalent (`café`
/// composed or with a combining accent, `K` and the Kelvin sign), which their bytes do not
/// show. While a prefix with a byte past ASCII is watched, and for a path with one, every
/// prefix of the path is a candidate, and the watchers' own `String` lookup decides.
struct PrefixSlots {
    private var counts = [UInt32](repeating: 0, count: PrefixSlots.slotCount)
    /// Watched prefixes with a byte past ASCII (not in a slot).
    private var beyondASCII = 0

    static let slotCount = 4_096

    /// Counts a newly watched prefix (`WatchHub` passes the spelling it keeps as the key).
    mutating func insert(_ prefix: String) {
        if let s = PrefixSlots.asciiSlot(of: prefix) { counts[s] += 1 } else { beyondASCII += 1 }
    }

    /// Forgets a prefix nobody watches any more: the spelling it was inserted with.
    mutating func remove(_ prefix: String) {
        if let s = PrefixSlots.asciiSlot(of: prefix) {
            assert(counts[s] > 0, "PrefixSlots: \(prefix) removed more often than inserted")
            if counts[s] > 0 { counts[s] -= 1 }
        } else {
            assert(beyondASCII > 0, "PrefixSlots: \(prefix) removed more often than inserted")
            if beyondASCII > 0 { beyondASCII -= 1 }
        }
    }

    /// Calls `body` with each prefix of `path` (as `WatchHub.forEachPrefix` gives them: `/`,
    /// then each one ending at a segment boundary, `path` itself last) whose slot holds a
    /// watched prefix: a superset of the watched ones among them.
    func forEachCandidate(of path: String, _ body: (String) -> Void) {
        if beyondASCII > 0 || path.utf8.contains(where: { $0 >= 0x80 }) {
            return WatchHub.forEachPrefix(of: path, body)
        }
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
            if b == PrefixSlots.slash, counts[PrefixSlots.slot(h)] > 0 { body(String(path[..<i])) }
            h = PrefixSlots.mix(h, b)
            i = u.index(after: i)
        }
        if counts[PrefixSlots.slot(h)] > 0 { body(path) }
    }

    private static let slash = UInt8(ascii: "/")
    private static let basis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let rootSlot = asciiSlot(of: "/")!

    @inline(__always) private static func mix(_ h: UInt64, _ b: UInt8) -> UInt64 { (h ^ UInt64(b)) &* 0x100_0000_01b3 }

    @inline(__always) private static func slot(_ h: UInt64) -> Int { Int(truncatingIfNeeded: (h ^ (h >> 29)) & 4_095) }

    /// The slot of an ASCII prefix; nil for one with a byte past ASCII.
    static func asciiSlot(of prefix: String) -> Int? {
        var h = basis
        for b in prefix.utf8 {
            guard b < 0x80 else { return nil }
            h = mix(h, b)
        }
        return slot(h)
    }
}
