/// A key read from a terminal's bytes, as the live view takes them.
public enum TerminalKey: Sendable, Equatable {
    /// A typed byte or a control character: Esc alone is `.byte(27)`, Enter `.byte(13)` or
    /// `.byte(10)`; a character of several UTF-8 bytes comes as one `.byte` each.
    case byte(UInt8)
    case up, down, right, left, home, end, pageUp, pageDown, insert, delete
    /// An escape sequence of a key not named here (F1, a mouse report…): taken whole, and
    /// ignored, so that none of its bytes reads as a typed key.
    case other
}

/// The live view's keys from the terminal's bytes: `ESC [ A` (and `ESC O A`, as a terminal
/// in application mode sends it) is ↑, likewise ↓ → ←, Home, End, PgUp, PgDn, Insert and
/// Delete, with or without modifiers (`ESC [ 1 ; 5 A` is ↑ too). An Esc that begins no
/// sequence is Esc alone, and what follows it is the keys it is, even when they came in the
/// same read: Esc then `x` is two keys, never one. Pure.
public enum TerminalKeys {
    static let esc: UInt8 = 27

    /// The first key in `bytes` and how many of its bytes it took; nil when `bytes` is empty,
    /// or (unless `final`) the beginning of a sequence that the bytes still to come may end
    /// (a lone Esc, `ESC [ 1`). With `final` (nothing more came within the wait) such a
    /// beginning is Esc alone.
    public static func first(_ bytes: ArraySlice<UInt8>, final: Bool) -> (key: TerminalKey, length: Int)? {
        guard let b = bytes.first else { return nil }
        guard b == esc else { return (.byte(b), 1) }
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return final ? (.byte(esc), 1) : nil }
        switch bytes[start + 1] {
        case UInt8(ascii: "["):
            switch csi(bytes.dropFirst(2)) {
            case .key(let key, let length): return (key, length + 2)
            case .unfinished: return final ? (.byte(esc), 1) : nil
            case .noSequence: return (.byte(esc), 1)
            }
        case UInt8(ascii: "O"):
            guard bytes.count >= 3 else { return final ? (.byte(esc), 1) : nil }
            guard let key = ss3(bytes[start + 2]) else { return (.byte(esc), 1) }
            return (key, 3)
        default:
            return (.byte(esc), 1)
        }
    }

    /// Every key in `bytes`, an unfinished sequence at the end as Esc alone and its bytes.
    public static func keys(_ bytes: [UInt8]) -> [TerminalKey] {
        var rest = bytes[...]
        var keys: [TerminalKey] = []
        while let next = first(rest, final: true) {
            keys.append(next.key)
            rest = rest.dropFirst(next.length)
        }
        return keys
    }

    private enum Sequence {
        case key(TerminalKey, Int)
        case unfinished
        case noSequence
    }

    /// What follows `ESC [`: parameter bytes (`0`–`?`), intermediate bytes (space to `/`) and
    /// a final byte (`@`–`~`). A byte outside those ranges means it was no sequence.
    private static func csi(_ bytes: ArraySlice<UInt8>) -> Sequence {
        var i = bytes.startIndex
        while i < bytes.endIndex, (0x30...0x3F).contains(bytes[i]) { i += 1 }
        let parameters = String(decoding: bytes[bytes.startIndex..<i], as: UTF8.self)
        while i < bytes.endIndex, (0x20...0x2F).contains(bytes[i]) { i += 1 }
        guard i < bytes.endIndex else { return .unfinished }
        guard (0x40...0x7E).contains(bytes[i]) else { return .noSequence }
        let length = i - bytes.startIndex + 1
        let number = Int(parameters.split(separator: ";", omittingEmptySubsequences: false).first ?? "")
        switch bytes[i] {
        case UInt8(ascii: "A"): return .key(.up, length)
        case UInt8(ascii: "B"): return .key(.down, length)
        case UInt8(ascii: "C"): return .key(.right, length)
        case UInt8(ascii: "D"): return .key(.left, length)
        case UInt8(ascii: "H"): return .key(.home, length)
        case UInt8(ascii: "F"): return .key(.end, length)
        case UInt8(ascii: "~"):
            let named: [Int: TerminalKey] = [
                1: .home, 7: .home, 4: .end, 8: .end, 2: .insert, 3: .delete, 5: .pageUp, 6: .pageDown,
            ]
            return .key(number.flatMap { named[$0] } ?? .other, length)
        default: return .key(.other, length)
        }
    }

    /// The byte after `ESC O` (application mode); nil for one that ends no sequence of a key.
    private static func ss3(_ b: UInt8) -> TerminalKey? {
        switch b {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "M"): return .byte(13)  // the keypad's Enter
        case UInt8(ascii: "P")...UInt8(ascii: "S"): return .other  // F1-F4
        default: return nil
        }
    }
}
