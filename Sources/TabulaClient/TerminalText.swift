/// The one rule for every piece of a server's text the client prints (text, JSON, CSV, TSV,
/// pushes, the live view, hints): no control character reaches the terminal raw, so a
/// hostile title or server cannot set the window title, write the clipboard (OSC 52), move
/// the cursor or clear the screen. Every C0 control but tab and line feed, DEL, every C1
/// control, the bidirectional overrides and isolates (U+202A–202E, U+2066–2069) and the
/// line and paragraph separators (U+2028/9) become `?`, as the server's own text does.
public enum TerminalText {
    /// `s` with every such character replaced by `?`; `s` itself when it has none.
    public static func safe(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 < 32 || $0 == 127 || $0 == 0xC2 || $0 == 0xE2 }) else { return s }
        var out = ""
        out.unicodeScalars.reserveCapacity(s.unicodeScalars.count)
        for u in s.unicodeScalars { out.unicodeScalars.append(isUnsafe(u) ? "?" : u) }
        return out
    }

    /// Whether the terminal would take `u` as a command rather than as text to show.
    public static func isUnsafe(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 9, 10: return false
        case 0..<32, 127, 0x80...0x9F: return true
        case 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
