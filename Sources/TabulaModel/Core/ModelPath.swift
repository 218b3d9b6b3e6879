import Glibc
import TabulaProtocol

/// Path arithmetic: absolute or relative, `.` and `..`, trailing slashes.
public enum ModelPath {
    /// The segments of `path` taken from `cwd` (itself absolute), with `.` and `..` applied.
    public static func segments(_ path: String?, cwd: String) -> [String] {
        var segs: [String] = []
        let p = path ?? "."
        if p.utf8.first != UInt8(ascii: "/") { add(cwd, to: &segs) }
        add(p, to: &segs)
        return segs
    }

    /// Appends the segments of `p` to `segs`, applying `.` and `..`; scans bytes once.
    private static func add(_ p: String, to segs: inout [String]) {
        let u = p.utf8
        var start = u.startIndex
        var i = start
        func flush(_ from: String.UTF8View.Index, _ to: String.UTF8View.Index) {
            let n = u.distance(from: from, to: to)
            if n == 0 { return }
            if n == 1 && u[from] == UInt8(ascii: ".") { return }
            if n == 2 && u[from] == UInt8(ascii: ".") && u[u.index(after: from)] == UInt8(ascii: ".") {
                if !segs.isEmpty { segs.removeLast() }
                return
            }
            segs.append(String(p[from..<to]))
        }
        while i < u.endIndex {
            if u[i] == UInt8(ascii: "/") {
                flush(start, i)
                start = u.index(after: i)
            }
            i = u.index(after: i)
        }
        flush(start, u.endIndex)
    }

    /// `/a` for `/a/b`, `/` for `/a` and `/`.
    public static func parent(_ path: String) -> String {
        let u = path.utf8
        guard let slash = u.lastIndex(of: UInt8(ascii: "/")), slash != u.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// `list/n` (`/items/17` for `/items` and 17; a list's path of at most 40 bytes), its
    /// digits written in place: an interpolation reaches the number's digits through its
    /// `description` and appends twice, on every write to a numbered list.
    public static func numbered(_ list: StaticString, _ n: Int) -> String {
        precondition(list.withUTF8Buffer { $0.count } <= 40, "a list's path of at most 40 bytes")
        // Written on the stack and made a String once: a path of up to 15 bytes is then a
        // small string, held in the String itself (no allocation, no reference count).
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { out in
            var i = 0
            list.withUTF8Buffer { head in
                for b in head {
                    out[i] = b
                    i += 1
                }
            }
            out[i] = UInt8(ascii: "/")
            i += 1
            if n < 0 {
                out[i] = UInt8(ascii: "-")
                i += 1
            }
            var m = n.magnitude
            let first = i
            repeat {
                out[i] = UInt8(ascii: "0") + UInt8(m % 10)
                m /= 10
                i += 1
            } while m > 0
            var (a, b) = (first, i - 1)
            while a < b {
                out.swapAt(a, b)
                (a, b) = (a + 1, b - 1)
            }
            return String(decoding: UnsafeBufferPointer(rebasing: out[..<i]), as: UTF8.self)
        }
    }

    /// `/a/b` from segments.
    public static func join(_ segs: [String]) -> String { "/" + segs.joined(separator: "/") }

    /// The bytes of `path`'s first segment after its leading slash (`settings` of
    /// `/settings/my-int`; empty for `/`), lent to `body`: how the hot path finds a change's
    /// top-level list without making its name as a String.
    @inline(__always)
    public static func withTopName<R>(of path: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var path = path
        return path.withUTF8 { u in
            let start = min(1, u.count)
            var end = start
            while end < u.count && u[end] != UInt8(ascii: "/") { end += 1 }
            return body(UnsafeBufferPointer(rebasing: u[start..<end]))
        }
    }

    /// Whether `name` (as `withTopName` lends it) is spelled by `bytes`: lengths first, then
    /// byte by byte over both buffers.
    @inline(__always)
    public static func spells(_ bytes: [UInt8], _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == name.count else { return false }
        return bytes.withUnsafeBufferPointer { b in
            for i in 0..<b.count where b[i] != name[i] { return false }
            return true
        }
    }

    /// The top-level list `path` lies in: `settings` of `/settings/my-int`, "" of `/` (the
    /// name the history's indexes by list use, in memory, in SQLite and in PostgreSQL). Split
    /// on the byte `/`, as those do, not on characters.
    public static func topName(of path: String) -> Substring {
        Substring(path.utf8.dropFirst().prefix { $0 != UInt8(ascii: "/") })
    }

    /// Whether `path` is a top-level list's own path (`/settings`): one segment, not `/`.
    public static func isTopLevel(_ path: String) -> Bool {
        path.utf8.count > 1 && path.utf8.first == UInt8(ascii: "/")
            && topName(of: path).utf8.count == path.utf8.count - 1
    }

    /// Whether `path` is `prefix` or lies under it (segment-wise).
    public static func isUnder(_ path: String, prefix: String) -> Bool {
        if prefix == "/" || prefix.isEmpty { return true }
        // Bytes, not characters: a path is under a prefix only when its bytes start with the
        // prefix's (no Unicode equivalence), and then at a segment boundary.
        let fast = path.utf8.withContiguousStorageIfAvailable { p in
            prefix.utf8.withContiguousStorageIfAvailable { q -> Bool in
                guard p.count >= q.count, memcmp(p.baseAddress!, q.baseAddress!, q.count) == 0 else { return false }
                return p.count == q.count || p[q.count] == UInt8(ascii: "/")
            }
        }
        if let answer = fast ?? nil { return answer }
        let p = path.utf8, q = prefix.utf8
        guard p.count >= q.count, p.starts(with: q) else { return false }
        if p.count == q.count { return true }
        return p[p.index(p.startIndex, offsetBy: q.count)] == UInt8(ascii: "/")
    }
}
