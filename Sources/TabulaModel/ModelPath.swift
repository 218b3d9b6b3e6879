import TabulaProtocol

/// Path arithmetic: absolute or relative, `.` and `..`, trailing slashes.
public enum ModelPath {
    /// The segments of `path` taken from `cwd` (itself absolute), with `.` and `..` applied.
    public static func segments(_ path: String?, cwd: String) -> [String] {
        var segs: [String] = []
        let p = path ?? "."
        if !p.hasPrefix("/") {
            segs = cwd.split(separator: "/").map(String.init)
        }
        for part in p.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !segs.isEmpty { segs.removeLast() }
            default: segs.append(String(part))
            }
        }
        return segs
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
