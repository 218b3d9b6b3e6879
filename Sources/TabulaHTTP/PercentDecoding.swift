extension HTTPParser {
    /// `path` percent-encoded for a `Location` header: unreserved bytes and `/` stay, every
    /// other byte (UTF-8) is `%XX`, so that nothing in it ends the header or the URL's path.
    public static func encodePath(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for b in path.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(b)
            default: out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A request target's path and query, percent-decoded (`+` is a space in the query). An
    /// absolute target (`http://host/path`) gives its path.
    static func split(_ target: [UInt8]) -> (String, [(String, String)]) {
        var t = target[...]
        if let scheme = t.firstIndex(of: UInt8(ascii: ":")), t.first != UInt8(ascii: "/"),
            t[scheme...].starts(with: Array("://".utf8))
        {
            let rest = t[(scheme + 3)...]
            t = rest.firstIndex(of: UInt8(ascii: "/")).map { rest[$0...] } ?? Array("/".utf8)[...]
        }
        if let hash = t.firstIndex(of: UInt8(ascii: "#")) { t = t[..<hash] }
        guard let q = t.firstIndex(of: UInt8(ascii: "?")) else { return (decode(t, plusIsSpace: false), []) }
        var query: [(String, String)] = []
        for pair in t[(q + 1)...].split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            if let eq = pair.firstIndex(of: UInt8(ascii: "=")) {
                query.append((decode(pair[..<eq], plusIsSpace: true), decode(pair[(eq + 1)...], plusIsSpace: true)))
            } else {
                query.append((decode(pair, plusIsSpace: true), ""))
            }
        }
        return (decode(t[..<q], plusIsSpace: false), query)
    }

    /// Percent-decodes `s`; a `%` not followed by two hex digits stays as it is, and bytes
    /// that are not UTF-8 become U+FFFD.
    static func decode(_ s: ArraySlice<UInt8>, plusIsSpace: Bool) -> String {
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var i = s.startIndex
        while i < s.endIndex {
            let b = s[i]
            if b == UInt8(ascii: "%"), i + 2 < s.endIndex, let h = hex(s[i + 1]), let l = hex(s[i + 2]) {
                out.append(h << 4 | l)
                i += 3
                continue
            }
            out.append(plusIsSpace && b == UInt8(ascii: "+") ? UInt8(ascii: " ") : b)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
