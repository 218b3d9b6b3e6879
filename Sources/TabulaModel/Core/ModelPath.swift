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

    /// `/a/b` from segments.
    public static func join(_ segs: [String]) -> String { "/" + segs.joined(separator: "/") }

    /// Whether `path` is `prefix` or lies under it (segment-wise).
    public static func isUnder(_ path: String, prefix: String) -> Bool {
        if prefix == "/" || prefix.isEmpty { return true }
        guard path.hasPrefix(prefix) else { return false }
        if path.count == prefix.count { return true }
        return path.utf8[path.utf8.index(path.utf8.startIndex, offsetBy: prefix.utf8.count)] == UInt8(ascii: "/")
    }
}
