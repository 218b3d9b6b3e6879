import Foundation

/// A line typed in the live view's status line, edited as readline's emacs keys edit: ← →
/// (Ctrl-B, Ctrl-F) move, Home and End (Ctrl-A, Ctrl-E) go to either end, Backspace and
/// Delete (Ctrl-D) remove a character, Ctrl-W the word before the cursor, Ctrl-U everything
/// before it and Ctrl-K everything after; Enter takes the line, Esc or Ctrl-C drops it. What
/// is typed is UTF-8 (its bytes come one key at a time), at most `mostBytes` bytes. Pure.
public struct LineEdit: Sendable, Equatable {
    /// A key, as the terminal gave it.
    public enum Key: Sendable, Equatable {
        /// A byte of typed text, or a control character (Ctrl-A is 1).
        case byte(UInt8)
        case left, right, home, end, backspace, delete
    }

    public enum Outcome: Sendable, Equatable {
        case editing
        case done(String)
        case dropped
    }

    public static let mostBytes = 200

    public private(set) var characters: [Character]
    /// Where the cursor is: before `characters[cursor]`.
    public private(set) var cursor: Int
    /// The bytes of a character still being typed.
    private var pending: [UInt8] = []

    public init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    public var text: String { String(characters) }

    /// Applies `key`.
    public mutating func take(_ key: Key) -> Outcome {
        switch key {
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .home: cursor = 0
        case .end: cursor = characters.count
        case .backspace: removeBefore(1)
        case .delete: if cursor < characters.count { characters.remove(at: cursor) }
        case .byte(let b): return take(byte: b)
        }
        return .editing
    }

    private mutating func take(byte b: UInt8) -> Outcome {
        switch b {
        case 10, 13: return .done(text.trimmingCharacters(in: .whitespaces))
        case 27, 3: return .dropped
        case 1: return take(.home)
        case 5: return take(.end)
        case 2: return take(.left)
        case 6: return take(.right)
        case 4: return take(.delete)
        case 8, 127: return take(.backspace)
        case 21: removeBefore(cursor)
        case 11: characters.removeSubrange(cursor...)
        case 23:
            var start = cursor
            while start > 0, characters[start - 1] == " " { start -= 1 }
            while start > 0, characters[start - 1] != " " { start -= 1 }
            removeBefore(cursor - start)
        case 32...255: typed(b)
        default: break
        }
        return .editing
    }

    private mutating func removeBefore(_ n: Int) {
        let n = min(n, cursor)
        characters.removeSubrange((cursor - n)..<cursor)
        cursor -= n
    }

    /// A byte of UTF-8: a character is inserted once its bytes are all there.
    private mutating func typed(_ b: UInt8) {
        pending.append(b)
        let lead = pending[0]
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
        guard length > 0 else { return pending.removeAll() }  // a stray continuation byte
        guard pending.count >= length else { return }
        let s = String(decoding: pending, as: UTF8.self)
        pending.removeAll()
        guard text.utf8.count + s.utf8.count <= LineEdit.mostBytes else { return }
        for c in s {
            characters.insert(c, at: cursor)
            cursor += 1
        }
    }
}
