/// One unit that the line decoder yields.
public enum DecodedLine: Equatable, Sendable {
    /// A complete line without its LF or CRLF.
    case line(ArraySlice<UInt8>)
    /// A line longer than the cap; its bytes up to the next newline are discarded.
    case tooLong
}

/// Splits a byte stream into lines, LF or CRLF, with a length cap.
///
/// Bytes are scanned once: a partial line keeps its scan position across `append` calls.
/// A line over `maxLine` bytes is reported once as `.tooLong` and the decoder skips to the
/// next newline, so one bad line never poisons the ones after it.
public struct LineDecoder: Sendable {
    /// The longest line accepted, in bytes, without its line ending.
    public let maxLine: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0
    private var discarding = false

    /// Makes a decoder that accepts lines of up to `maxLine` bytes.
    public init(maxLine: Int) {
        self.maxLine = max(1, maxLine)
    }

    /// Bytes held for a line not yet complete.
    public var bufferedCount: Int { buffer.count - start }

    /// Adds received bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        InputBuffer.append(bytes, to: &buffer, start: &start, scanned: &scanned)
    }

    /// Adds received bytes.
    public mutating func append<C: Collection>(contentsOf bytes: C) where C.Element == UInt8 {
        Array(bytes).withUnsafeBytes { append($0) }
    }

    /// The input has ended: a last line sent without a newline becomes a complete line
    /// (`next` yields it), as `sh`, `nc` and `printf` users expect.
    public mutating func finish() {
        if bufferedCount > 0 && !discarding { buffer.append(10) }
    }

    /// The next complete line, `.tooLong` for an over-long one, or nil when more bytes are needed.
    public mutating func next() -> DecodedLine? {
        while true {
            let newline: Int? = buffer.withUnsafeBufferPointer { buf in
                var i = scanned
                while i < buf.count {
                    if buf[i] == 10 { return i }
                    i += 1
                }
                return nil
            }
            guard let nl = newline else {
                scanned = buffer.count
                if !discarding && buffer.count - start > maxLine {
                    discarding = true
                    start = buffer.count
                    scanned = buffer.count
                    return .tooLong
                }
                if discarding {
                    start = buffer.count
                    scanned = buffer.count
                }
                return nil
            }
            let lineStart = start
            start = nl + 1
            scanned = start
            if discarding {
                discarding = false
                continue
            }
            var end = nl
            if end > lineStart && buffer[end - 1] == 13 { end -= 1 }
            if end - lineStart > maxLine { return .tooLong }
            return .line(buffer[lineStart..<end])
        }
    }
}
