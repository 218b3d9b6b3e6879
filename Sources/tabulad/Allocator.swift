import CJemalloc

/// The allocator that serves tabulad: jemalloc, linked in (as Redis links it) so that its
/// malloc and free replace the C library's for the whole process, Swift's runtime included.
/// glibc's malloc gives each thread an arena and frees a block into the arena it came from,
/// under that arena's lock; the loops allocate what the engine frees and back, so at c=50
/// durable writes the threads met on those locks ~40,000 times a second (futex calls, and
/// the context switches of the waiters). jemalloc's per-thread caches take such frees
/// without a lock.
enum Allocator {
    /// "jemalloc 5.3.0" once this thread's allocations are seen to go through it, or what
    /// serves them otherwise (a loader that resolved malloc to the C library first).
    static func describe() -> String {
        var version: UnsafePointer<CChar>?
        var size = MemoryLayout<UnsafePointer<CChar>?>.size
        guard mallctl("version", &version, &size, nil, 0) == 0, let version else { return "the C library's malloc" }
        let release = String(cString: version).prefix { $0 != "-" }
        let probe = 1 << 16
        let before = allocatedByThisThread()
        let bytes = [UInt8](repeating: 1, count: probe)
        let after = allocatedByThisThread()
        return withExtendedLifetime(bytes) {
            after &- before >= UInt64(probe)
                ? "jemalloc \(release)" : "the C library's malloc (jemalloc \(release) linked but not used)"
        }
    }

    /// Bytes this thread has allocated through jemalloc since it started.
    private static func allocatedByThisThread() -> UInt64 {
        var n: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        return mallctl("thread.allocated", &n, &size, nil, 0) == 0 ? n : 0
    }
}
