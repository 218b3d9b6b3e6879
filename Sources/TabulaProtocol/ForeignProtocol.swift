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
        // The word's first 8 bytes, packed: compared with each word as one integer (no table
        // to walk: this runs for every line that starts with one of those letters).
        let n = end - i
        var key: UInt64 = 0
        for k in i..<min(end, i + 8) { key = key << 8 | UInt64(line[k]) }
        if n == 4 && key & 0xDFDF_DFDF == postWord { return true }
        if n >= 5 && (key >> (8 * UInt64(min(n, 8) - 5))) & 0xDF_DFDF_DFFF == hostWord { return true }
        guard n <= 8, isMethod(key) else { return false }
        // A request line: METHOD target HTTP/x.y, the version its last word.
        var last = line.endIndex
        while last > end && (line[last - 1] == 32 || line[last - 1] == 9 || line[last - 1] == 13) { last -= 1 }
        var start = last
        while start > end && line[start - 1] != 32 && line[start - 1] != 9 { start -= 1 }
        return start > end && line[start..<last].starts(with: "HTTP/".utf8)
    }

    /// Words packed as `isHTTP` packs them (ASCII, first byte highest).
    private static let postWord: UInt64 = 0x504F_5354  // POST
    private static let hostWord: UInt64 = 0x48_4F53_543A  // HOST:

    /// HTTP's methods, packed, matched exactly (case-sensitive, as HTTP's are).
    private static func isMethod(_ key: UInt64) -> Bool {
        switch key {
        case 0x47_4554,  // GET
            0x4845_4144,  // HEAD
            0x50_5554,  // PUT
            0x4445_4C45_5445,  // DELETE
            0x4F_5054_494F_4E53,  // OPTIONS
            0x50_4154_4348,  // PATCH
            0x43_4F4E_4E45_4354,  // CONNECT
            0x54_5241_4345:  // TRACE
            return true
        default: return false
        }
    }
}
