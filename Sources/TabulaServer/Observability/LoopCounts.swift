import CLinuxShims
import TabulaProtocol

/// The counts every request touches (requests run by verb, bytes read and written), one set
/// per thread that runs requests: each I/O loop, and the engine. A set is written by its own
/// thread alone, with a plain load and store (`tabula_count_add`: no locked read-modify-write),
/// and its counts fill whole cache lines of their own (no line shared with another set), so
/// no count's line passes between threads per request; `ServerStats` sums the sets when
/// STATS, INFO or `/metrics` read them. None of them enforces a bound: those (the unread
/// output) stay one shared total, exact where the bound is checked.
final class LoopCounts: @unchecked Sendable {
    /// The counts: one per verb (indexed like `Verb.allCases`), then bytes in, then bytes out.
    private let slots: UnsafeMutablePointer<Int64>
    private static let bytesInSlot = Verb.allCases.count
    private static let bytesOutSlot = bytesInSlot + 1
    /// Whole 64-byte lines, aligned to a line.
    private static let slotCount = (bytesOutSlot + 1 + 7) / 8 * 8

    init() {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: LoopCounts.slotCount * 8, alignment: 64)
        slots = raw.initializeMemory(as: Int64.self, repeating: 0, count: LoopCounts.slotCount)
    }

    deinit { slots.deallocate() }

    /// A request of `verb` ran (its set's own thread only).
    func ran(_ verb: Verb) { tabula_count_add(slots + verb.ordinal, 1) }
    /// Bytes read from and written to clients (its loop's thread only).
    func read(_ n: Int) { tabula_count_add(slots + LoopCounts.bytesInSlot, Int64(n)) }
    func wrote(_ n: Int) { tabula_count_add(slots + LoopCounts.bytesOutSlot, Int64(n)) }

    /// Requests of `verb` run (any thread).
    func requests(_ verb: Verb) -> Int { Int(tabula_count_read(slots + verb.ordinal)) }
    /// Requests run, all verbs (any thread).
    var requests: Int { (0..<LoopCounts.bytesInSlot).reduce(0) { $0 + Int(tabula_count_read(slots + $1)) } }
    var bytesIn: Int { Int(tabula_count_read(slots + LoopCounts.bytesInSlot)) }
    var bytesOut: Int { Int(tabula_count_read(slots + LoopCounts.bytesOutSlot)) }
}
