/// Writes bytes through a pointer into temporary room of the most the writer may write (on
/// the stack for short texts, the usual case), then appends what was written to an array
/// with one copy. An `append` to the array per
/// piece checks uniqueness and capacity and goes through the generic path each time (about
/// 90 instructions a piece): for texts made of many small pieces on the hot path, such as an
/// item's JSON.
public struct ByteWriter: ~Copyable {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// The bytes written so far.
    public private(set) var count = 0

    private init(_ base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// Appends to `out` what `body` writes, at most `capacity` bytes (writing more stops the
    /// process: the caller's bound is wrong).
    public static func append(to out: inout [UInt8], atMost capacity: Int, _ body: (inout ByteWriter) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { room in
            var w = ByteWriter(room.baseAddress!, capacity: capacity)
            body(&w)
            out.append(contentsOf: UnsafeBufferPointer(start: room.baseAddress!, count: w.count))
        }
    }

    private mutating func copy(_ from: UnsafePointer<UInt8>, _ n: Int) {
        precondition(count + n <= capacity, "ByteWriter: past the capacity it was given")
        (base + count).update(from: from, count: n)
        count += n
    }

    /// Appends a byte.
    public mutating func append(_ b: UInt8) {
        precondition(count < capacity, "ByteWriter: past the capacity it was given")
        base[count] = b
        count += 1
    }

    /// Appends a literal's UTF-8.
    public mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { copy($0.baseAddress!, $0.count) }
    }

    /// Appends a string's UTF-8 as it is (named apart from `append(_: StaticString)`, which
    /// a literal must choose).
    public mutating func append(utf8Of s: String) {
        ByteWriter.withUTF8(of: s) { copy($0.baseAddress!, $0.count) }
    }

    /// Appends `s` as `WireEncoder.appendOneLine` appends it: at most 2 bytes a byte of `s`.
    public mutating func appendOneLine(_ s: String) {
        ByteWriter.withUTF8(of: s) { bytes in
            guard !WireEncoder.standsAsOneLine(bytes) else { return copy(bytes.baseAddress!, bytes.count) }
            var escaped: [UInt8] = []
            WireEncoder.appendOneLine(s, to: &escaped)
            escaped.withUnsafeBufferPointer { copy($0.baseAddress!, $0.count) }
        }
    }

    /// Calls `body` with `s`'s UTF-8 (never a null base: an empty string is written as nothing).
    private static func withUTF8(of s: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { b in if !b.isEmpty { body(b) } }
        guard done == nil else { return }
        var s = s
        s.withUTF8 { b in if !b.isEmpty { body(b) } }
    }

    /// Appends `v` in decimal (at most 20 bytes).
    public mutating func appendDecimal(_ v: Int64) {
        if v < 0 { append(UInt8(ascii: "-")) }
        appendDecimal(v.magnitude)
    }

    /// Appends `v` in decimal (at most 20 bytes).
    public mutating func appendDecimal(_ v: UInt64) {
        WireEncoder.withDecimalDigits(v) { copy($0.baseAddress!.assumingMemoryBound(to: UInt8.self), $0.count) }
    }

    /// Appends `v`, 0 to 99, as two digits, then `then`.
    public mutating func appendTwoDigits(_ v: Int, then: UInt8) {
        precondition(count + 3 <= capacity, "ByteWriter: past the capacity it was given")
        base[count] = UInt8(truncatingIfNeeded: 48 + v / 10)
        base[count + 1] = UInt8(truncatingIfNeeded: 48 + v % 10)
        base[count + 2] = then
        count += 3
    }

    /// Appends `s` as a JSON string literal, quotes included: at most 6 bytes a byte of `s`,
    /// and 2 (`JSONValue.writeString`'s text).
    public mutating func appendJSONString(_ s: String) {
        append(UInt8(ascii: "\""))
        if s.utf8.withContiguousStorageIfAvailable({ appendEscaped($0) }) == nil {
            var s = s
            s.withUTF8 { appendEscaped($0) }
        }
        append(UInt8(ascii: "\""))
    }

    private mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        var start = 0
        for i in bytes.indices where JSONValue.needsEscape(bytes[i]) {
            if i > start { copy(bytes.baseAddress! + start, i - start) }
            appendEscape(bytes[i])
            start = i + 1
        }
        if bytes.count > start { copy(bytes.baseAddress! + start, bytes.count - start) }
    }

    /// The escape JSON writes for `b` (`JSONValue.writeEscape`): at most 6 bytes.
    private mutating func appendEscape(_ b: UInt8) {
        precondition(count + 6 <= capacity, "ByteWriter: past the capacity it was given")
        count += JSONValue.writeEscape(b, at: base + count)
    }
}
