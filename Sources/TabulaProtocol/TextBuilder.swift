/// Writes a `String`'s UTF-8 straight into the string's own storage: one allocation, and
/// no array of bytes made first and copied (`String(decoding:)` copies and checks every
/// byte again). For short texts built from parts on the hot path: an item's row.
public struct TextBuilder: ~Copyable {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// The bytes written so far.
    public private(set) var count = 0

    private init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = buffer.baseAddress!
        capacity = buffer.count
    }

    /// The text `body` writes, at most `capacity` bytes (writing more stops the process: the
    /// caller's bound is wrong). Everything written must be whole UTF-8 (Strings, literals and
    /// digits are).
    public static func build(capacity: Int, _ body: (inout TextBuilder) -> Void) -> String {
        String(unsafeUninitializedCapacity: max(capacity, 1)) { buffer in
            var b = TextBuilder(buffer)
            body(&b)
            return b.count
        }
    }

    private mutating func copy(_ p: UnsafeRawBufferPointer) {
        precondition(count + p.count <= capacity, "TextBuilder: past the capacity it was given")
        if let from = p.baseAddress {
            (base + count).update(from: from.assumingMemoryBound(to: UInt8.self), count: p.count)
        }
        count += p.count
    }

    /// Appends a string's UTF-8.
    public mutating func append(_ s: String) {
        if let done: Void = s.utf8.withContiguousStorageIfAvailable({ copy(UnsafeRawBufferPointer($0)) }) {
            return done
        }
        var s = s
        s.withUTF8 { copy(UnsafeRawBufferPointer($0)) }
    }

    /// Appends a literal's UTF-8.
    public mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { copy(UnsafeRawBufferPointer($0)) }
    }

    /// Appends `v` in decimal.
    public mutating func appendDecimal(_ v: Int) {
        if v < 0 { append("-") }
        appendDecimal(UInt64(v.magnitude))
    }

    /// Appends `v` in decimal.
    public mutating func appendDecimal(_ v: UInt64) {
        WireEncoder.withDecimalDigits(v) { copy($0) }
    }
}
