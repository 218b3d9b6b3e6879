/// Lines that are HTTP, not Tabula: an HTTP request line (`POST / HTTP/1.1`), any line that
/// starts with `POST` (Tabula has no such verb), and a `Host:` header. A page of another site
/// can make a browser send such a request to the line port (a `text/plain` fetch to
/// `http://127.0.0.1:8228/`), whose body lines would run as requests; the line port closes
/// the connection at the first of them instead, as Redis does on `POST` and `Host:`.
/// Byte-wise, case-insensitive for `POST` and `Host:`; pure.
public enum ForeignProtocol {
    /// Whether `line` (without its newline) is one of those lines.
    public static func isHTTP(_ line: ArraySlice<UInt8>) -> Bool {
        var i = line.startIndex
        while i < line.endIndex && (line[i] == 32 || line[i] == 9) { i += 1 }
        // Every word it looks for starts with one of these letters: most lines stop here.
        guard i < line.endIndex else { return false }
        switch line[i] & 0xDF {
        case UInt8(ascii: "G"), UInt8(ascii: "H"), UInt8(ascii: "P"), UInt8(ascii: "D"), UInt8(ascii: "O"),
            UInt8(ascii: "C"), UInt8(ascii: "T"):
            break
        default: return false
        }
        var end = i
        while end < line.endIndex && line[end] != 32 && line[end] != 9 { end += 1 }
        let word = line[i..<end]
        if equalsFolded(word, post) || startsFolded(word, host) { return true }
        guard methods.contains(where: { word.elementsEqual($0) }) else { return false }
        // A request line: METHOD target HTTP/x.y, the version its last word.
        var last = line.endIndex
        while last > end && (line[last - 1] == 32 || line[last - 1] == 9 || line[last - 1] == 13) { last -= 1 }
        var start = last
        while start > end && line[start - 1] != 32 && line[start - 1] != 9 { start -= 1 }
        return start > end && line[start..<last].starts(with: version)
    }

    private static let post = Array("POST".utf8)
    private static let host = Array("HOST:".utf8)
    private static let version = Array("HTTP/".utf8)
    private static let methods = ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH", "CONNECT", "TRACE"].map {
        Array($0.utf8)
    }

    /// ASCII letters compared without case (`word` against an upper-case `upper`).
    private static func equalsFolded(_ word: ArraySlice<UInt8>, _ upper: [UInt8]) -> Bool {
        word.count == upper.count && startsFolded(word, upper)
    }

    private static func startsFolded(_ word: ArraySlice<UInt8>, _ upper: [UInt8]) -> Bool {
        guard word.count >= upper.count else { return false }
        return zip(word, upper).allSatisfy { a, b in a == b || (b >= 65 && b <= 90 && a == b + 32) }
    }
}
