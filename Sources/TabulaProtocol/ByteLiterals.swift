extension Array where Element == UInt8 {
    /// Appends a literal's UTF-8 bytes with one copy (appending a `String`'s `utf8` view goes
    /// through the generic sequence path, a few instructions a byte).
    @inlinable @inline(__always)
    public mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }
}
