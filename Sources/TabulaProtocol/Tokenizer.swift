/// Splits a request line into arguments: spaces separate, `"…"` takes backslash escapes,
/// `'…'` is literal. Works on the line's bytes; validates UTF-8 and refuses control bytes.
public enum Tokenizer {
    /// Splits `line` into arguments, or says exactly what is wrong with it.
    public static func tokenize(_ line: ArraySlice<UInt8>) -> Result<[String], TabulaError> {
        if let plain = plainWords(line) { return .success(plain) }
        return general(line)
    }

    /// Any line: quotes, escapes, UTF-8 validation and the errors that explain them.
    static func general(_ line: ArraySlice<UInt8>) -> Result<[String], TabulaError> {
        var tokens: [String] = []
        var current: [UInt8] = []
        var inToken = false
        var i = line.startIndex
        let end = line.endIndex
        while i < end {
            let b = line[i]
            if b == 0 {
                return .failure(
                    TabulaError(.encoding, "NUL byte at column \(i - line.startIndex + 1); lines are UTF-8 text"))
            }
            if b < 32 && b != 9 || b == 127 {
                return .failure(
                    TabulaError(
                        .encoding,
                        "control character 0x\(String(b, radix: 16)) at column \(i - line.startIndex + 1); quote text with \"…\" and write a line break as backslash n, a tab as backslash t"
                    ))
            }
            switch b {
            case 32, 9:
                if inToken {
                    guard let s = String(validating: current, as: UTF8.self) else { return .failure(invalidUTF8) }
                    tokens.append(s)
                    current.removeAll(keepingCapacity: true)
                    inToken = false
                }
                i += 1
            case UInt8(ascii: "'"):
                inToken = true
                if let e = singleQuoted(line, at: &i, into: &current) { return .failure(e) }
            case UInt8(ascii: "\""):
                inToken = true
                if let e = doubleQuoted(line, at: &i, into: &current) { return .failure(e) }
            default:
                // A plain run of bytes: take it whole (the common case: no copying byte by byte).
                inToken = true
                let start = i
                while i < end {
                    let c = line[i]
                    if c == 32 || c == 9 || c == 34 || c == 39 || c < 32 || c == 127 { break }
                    i += 1
                }
                current.append(contentsOf: line[start..<i])
            }
        }
        if inToken {
            guard let s = String(validating: current, as: UTF8.self) else { return .failure(invalidUTF8) }
            tokens.append(s)
        }
        return .success(tokens)
    }

    /// `'…'` from its opening quote at `i`: taken literally. Leaves `i` after the closing quote.
    static func singleQuoted(_ line: ArraySlice<UInt8>, at i: inout Int, into current: inout [UInt8]) -> TabulaError? {
        i += 1
        let open = i
        while i < line.endIndex && line[i] != UInt8(ascii: "'") {
            if line[i] < 32 || line[i] == 127 {
                return TabulaError(.encoding, "control character inside '…' at column \(i - line.startIndex + 1)")
            }
            current.append(line[i])
            i += 1
        }
        if i >= line.endIndex {
            return TabulaError(
                .syntax, "unterminated '…' quote starting at column \(open - line.startIndex); close it with '")
        }
        i += 1
        return nil
    }

    /// `"…"` from its opening quote at `i`, escapes applied. Leaves `i` after the closing quote.
    static func doubleQuoted(_ line: ArraySlice<UInt8>, at i: inout Int, into current: inout [UInt8]) -> TabulaError? {
        let open = i - line.startIndex + 1
        i += 1
        while i < line.endIndex {
            let c = line[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                return nil
            }
            if c < 32 && c != 9 || c == 127 {
                return TabulaError(.encoding, "control character inside \"…\" at column \(i - line.startIndex + 1)")
            }
            if c == UInt8(ascii: "\\") {
                i += 1
                guard i < line.endIndex else { break }
                if let e = escape(line, at: &i, into: &current) { return e }
                continue
            }
            current.append(c)
            i += 1
        }
        return TabulaError(.syntax, "unterminated \"…\" quote starting at column \(open); close it with \"")
    }

    /// The escape whose letter is at `i` (after its backslash). Leaves `i` after it.
    static func escape(_ line: ArraySlice<UInt8>, at i: inout Int, into current: inout [UInt8]) -> TabulaError? {
        switch line[i] {
        case UInt8(ascii: "n"): current.append(10)
        case UInt8(ascii: "t"): current.append(9)
        case UInt8(ascii: "r"): current.append(13)
        case UInt8(ascii: "\\"): current.append(92)
        case UInt8(ascii: "\""): current.append(34)
        case UInt8(ascii: "'"): current.append(39)
        case UInt8(ascii: "u"):
            guard i + 4 < line.endIndex,
                let v = UInt32(String(decoding: line[(i + 1)...(i + 4)], as: UTF8.self), radix: 16),
                v != 0, let scalar = Unicode.Scalar(v)
            else {
                return TabulaError(
                    .syntax,
                    "bad \\u escape at column \(i - line.startIndex); write \\u followed by four hex digits, e.g. \\u00e9"
                )
            }
            current.append(contentsOf: Array(String(Character(scalar)).utf8))
            i += 4
        default:
            let shown = String(decoding: [line[i]], as: UTF8.self)
            return TabulaError(
                .syntax,
                "unknown escape \\\(shown) at column \(i - line.startIndex); known escapes are \\n \\t \\r \\\\ \\\" \\' \\uXXXX"
            )
        }
        i += 1
        return nil
    }

    /// The common case, fast: a line of printable ASCII words with no quotes splits on
    /// blanks with no copying beyond the strings themselves. Nil for anything else (quotes,
    /// control bytes, non-ASCII), which the general path handles and explains.
    static func plainWords(_ line: ArraySlice<UInt8>) -> [String]? {
        line.withUnsafeBufferPointer { buf -> [String]? in
            var words: [String] = []
            var i = 0
            let n = buf.count
            while i < n {
                if isBlank(buf[i]) {
                    i += 1
                    continue
                }
                let start = i
                while i < n && !isBlank(buf[i]) {
                    guard isPlain(buf[i]) else { return nil }
                    i += 1
                }
                if words.isEmpty { words.reserveCapacity(4) }  // none made for a line without words
                words.append(String(decoding: UnsafeBufferPointer(rebasing: buf[start..<i]), as: UTF8.self))
            }
            return words
        }
    }

    /// The first word of `line` and what follows it, when that word is plain printable ASCII
    /// (no quote): the bytes a verb is looked up in. Nil for anything else.
    static func plainFirstWord(_ line: ArraySlice<UInt8>) -> (word: ArraySlice<UInt8>, rest: ArraySlice<UInt8>)? {
        var i = line.startIndex
        while i < line.endIndex && isBlank(line[i]) { i += 1 }
        let start = i
        while i < line.endIndex && !isBlank(line[i]) {
            guard isPlain(line[i]) else { return nil }
            i += 1
        }
        return i > start ? (line[start..<i], line[i...]) : nil
    }

    /// A space or a tab: what separates words.
    @inline(__always) private static func isBlank(_ b: UInt8) -> Bool { b == 32 || b == 9 }

    /// A byte a plain word may hold as it is: printable ASCII but the quotes.
    @inline(__always) private static func isPlain(_ b: UInt8) -> Bool { b > 32 && b < 127 && b != 34 && b != 39 }

    /// Splits a whole line held in an array.
    public static func tokenize(_ line: [UInt8]) -> Result<[String], TabulaError> { tokenize(line[...]) }

    static let invalidUTF8 = TabulaError(.encoding, "the line is not valid UTF-8; send text in UTF-8")
}

/// Quoting of values for text output, so that any value can be typed back in.
public enum Quoting {
    /// `s` as one argument: bare when it is a plain word, otherwise in `"…"` with escapes.
    public static func quote(_ s: String) -> String {
        if !s.isEmpty && s.utf8.allSatisfy({ isBare($0) }) { return s }
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if ch.value < 32 || ch.value == 127 {
                    let h = String(ch.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
                } else {
                    out.unicodeScalars.append(ch)
                }
            }
        }
        return out + "\""
    }

    static func isBare(_ b: UInt8) -> Bool {
        b > 32 && b != 127 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "'") && b != UInt8(ascii: "\\")
    }
}
