/// The admission checks every transport applies to what a client sends, whatever its framing
/// (a line, RESP inline or multibulk, an HTTP API request): one element bound, one bound
/// before a login, and one rule for the text a write stores. Each codec asks these, so that a
/// check added here holds on every port. Pure: no I/O, no state.
///
/// (An HTTP request line or header on a port that is not HTTP is `ForeignProtocol`'s rule,
/// which the line protocol and both RESP ports apply.)
public enum RequestGate {
    /// The most elements (words) of one request: the loop's bound on units held for one
    /// connection, so that one request (a SUBSCRIBE of as many prefixes) never becomes more
    /// units than the loop would hold of many.
    public static let mostElements = 4096
    /// Before a login, on a server with users: at most this many elements…
    public static let preLoginElements = 10
    /// …of at most this many bytes each (Redis's bounds), and a line at most this long.
    public static let preLoginElementBytes = 16 * 1024

    /// Why a request of `elements` words, the longest `longest` bytes, may not be read (the
    /// stream is then closed: what follows it cannot be trusted), or nil.
    public static func boundRefusal(elements: Int, longest: Int, loggedIn: Bool) -> String? {
        if elements > mostElements {
            return "a request of \(elements) elements is over the bound of \(mostElements); send fewer at a time"
        }
        guard !loggedIn else { return nil }
        if elements > preLoginElements {
            return
                "a request of \(elements) elements before a login is over the bound of \(preLoginElements); log in first"
        }
        if longest > preLoginElementBytes {
            return
                "an element of \(longest) bytes before a login is over the bound of \(preLoginElementBytes); log in first"
        }
        return nil
    }

    /// Why a write's `args` may not be stored, or nil: text is kept as written and shown to
    /// every client, so it may hold a tab, a line feed and a carriage return (the line
    /// protocol's `\t`, `\n`, `\r`), but no NUL (no store keeps it) and no other control
    /// character: C0, DEL and C1, which a terminal would act on (`\u{1B}[2J` clears it).
    public static func storedTextRefusal(_ verb: Verb, _ args: [String]) -> TabulaError? {
        guard verb.traits(hasArguments: !args.isEmpty).access == .write else { return nil }
        for arg in args {
            guard let bad = firstControl(arg) else { continue }
            if bad == 0 {
                return TabulaError(
                    .invalid, "\(verb.rawValue) was given a NUL character (U+0000), which no store keeps: leave it out")
            }
            let hex = String(bad, radix: 16, uppercase: true)
            let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            return TabulaError(
                .encoding,
                "\(verb.rawValue) was given the control character \(code), which stored text may not hold "
                    + "(a terminal would act on it); tab, line feed and carriage return are the only ones kept")
        }
        return nil
    }

    /// The first control character of `s` that stored text may not hold, or nil.
    static func firstControl(_ s: String) -> UInt32? {
        var s = s
        return s.withUTF8 { bytes -> UInt32? in
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                if b < 32 && b != 9 && b != 10 && b != 13 || b == 127 { return UInt32(b) }
                // C1 (U+0080–U+009F) is 0xC2 0x80–0x9F in UTF-8.
                if b == 0xC2, i + 1 < bytes.count, bytes[i + 1] >= 0x80 && bytes[i + 1] <= 0x9F {
                    return UInt32(bytes[i + 1])
                }
                i += 1
            }
            return nil
        }
    }
}
