import TabulaProtocol

/// One request that the RESP decoder yields.
public enum RESPRequest: Equatable, Sendable {
    /// A multibulk request: its elements, binary-safe (`*2\r\n$4\r\nPING\r\n$2\r\nhi\r\n`).
    case multibulk([[UInt8]])
    /// An inline request: a line not starting with `*`, without its line ending.
    case inline([UInt8])
    /// The stream cannot be read further (Redis closes the connection here too); says why.
    case fatal(String)
}

/// Cuts a RESP byte stream into requests, as Redis reads them: a request starting with `*`
/// is multibulk (`*<n>\r\n` then n × `$<len>\r\n<bytes>\r\n`), anything else is an inline
/// line up to `\n`.
///
/// Every byte is examined once: a request cut anywhere resumes where it stopped, so that a
/// request sent a byte at a time costs what it costs whole. Bounds: a request as sent (its
/// header and every element's length line, bytes and line ends; or an inline line) is at
/// most `maxRequest` bytes, and declares at most `mostElements` elements; before a login
/// (`unauthenticated`) at most 10 elements of at most 16 KiB each, as Redis bounds it.
/// Breaking a bound, or a malformed frame, is fatal: the stream's framing is lost.
public struct RESPDecoder: Sendable {
    /// The most bytes of one request.
    public let maxRequest: Int
    /// Whether the unauthenticated bounds apply: set by the server before each read, from
    /// whether the connection has logged in (a login asked and refused leaves them on).
    public var unauthenticated: Bool

    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0
    private var failed = false
    /// A fatal error found while looking for a line, not yet yielded.
    private var pendingFatal: String?
    /// A multibulk request in progress: the elements declared, those read and the next's length.
    private var declared: Int?
    private var elements: [[UInt8]] = []
    private var bulkLength: Int?
    private var requestBytes = 0

    public init(maxRequest: Int, unauthenticated: Bool = false) {
        self.maxRequest = max(16, maxRequest)
        self.unauthenticated = unauthenticated
    }

    /// Bytes held for a request not yet complete: what is unread of the buffer, and what the
    /// request in progress was sent as so far (its header, and its elements read, counted
    /// with their framing: a million empty elements are 6 MB, not nothing).
    public var bufferedCount: Int { buffer.count - start + requestBytes }

    /// Adds received bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if failed { return }
        InputBuffer.append(bytes, to: &buffer, start: &start, scanned: &scanned)
    }

    /// Adds received bytes.
    public mutating func append<C: Collection>(contentsOf bytes: C) where C.Element == UInt8 {
        Array(bytes).withUnsafeBytes { append($0) }
    }

    /// The next complete request, a fatal error (after which nothing more is read), or nil
    /// when more bytes are needed.
    public mutating func next() -> RESPRequest? {
        while !failed {
            if let length = bulkLength {
                // The element's bytes and its CRLF.
                guard buffer.count - start >= length + 2 else { return nil }
                guard buffer[start + length] == 13, buffer[start + length + 1] == 10 else {
                    return fail("expected CRLF after a bulk string of \(length) bytes")
                }
                elements.append(Array(buffer[start..<(start + length)]))
                requestBytes += length + 2
                consume(to: start + length + 2)
                bulkLength = nil
                if elements.count == declared { return finishMultibulk() }
                continue
            }
            if declared != nil {
                guard let line = nextLine() else { return takeFatal() }
                guard line.first == UInt8(ascii: "$") else {
                    return fail("expected '$', got '\(Self.shown(line.first))'")
                }
                guard let n = Self.number(line.dropFirst()), n >= 0 else { return fail("invalid bulk length") }
                if unauthenticated && n > RequestGate.preLoginElementBytes {
                    return fail("unauthenticated bulk length")
                }
                requestBytes += line.count + 2
                if requestBytes + n + 2 > maxRequest { return fail("request longer than \(maxRequest) bytes") }
                bulkLength = n
                continue
            }
            guard start < buffer.count else { return nil }
            if buffer[start] != UInt8(ascii: "*") {
                guard let line = nextLine() else { return takeFatal() }
                if line.allSatisfy({ $0 == 32 || $0 == 9 }) { continue }  // an empty line: nothing asked
                return .inline(Array(line))
            }
            guard let line = nextLine() else { return takeFatal() }
            guard let n = Self.number(line.dropFirst()) else { return fail("invalid multibulk length") }
            if n <= 0 { continue }  // `*0` and `*-1` ask nothing, as in Redis
            if unauthenticated && n > RequestGate.preLoginElements { return fail("unauthenticated multibulk length") }
            if n > RequestGate.mostElements {
                return fail("multibulk length \(n) is over \(RequestGate.mostElements) elements")
            }
            if (line.count + 2) + 6 * n > maxRequest {
                return fail("request longer than \(maxRequest) bytes (\(n) elements take at least \(6 * n))")
            }
            requestBytes = line.count + 2
            declared = n
            elements.reserveCapacity(min(n, 64))
        }
        return nil
    }

    private mutating func finishMultibulk() -> RESPRequest {
        let done = elements
        elements = []
        declared = nil
        requestBytes = 0
        return .multibulk(done)
    }

    /// The next line without its CRLF (or LF), consumed; nil while it is incomplete. A line
    /// (a header or an inline request) longer than `maxRequest` fails the stream.
    private mutating func nextLine() -> ArraySlice<UInt8>? {
        var i = max(scanned, start)
        while i < buffer.count && buffer[i] != 10 { i += 1 }
        guard i < buffer.count else {
            scanned = buffer.count
            if buffer.count - start > maxRequest,
                case .fatal(let why) = fail("too big inline request (more than \(maxRequest) bytes without a newline)")
            {
                pendingFatal = why
            }
            return nil
        }
        var end = i
        if end > start && buffer[end - 1] == 13 { end -= 1 }
        if end - start > maxRequest {  // however it arrived, whole or in pieces
            if case .fatal(let why) = fail("too big inline request (more than \(maxRequest) bytes without a newline)") {
                pendingFatal = why
            }
            return nil
        }
        let line = buffer[start..<end]
        consume(to: i + 1)
        return line
    }

    private mutating func takeFatal() -> RESPRequest? {
        defer { pendingFatal = nil }
        return pendingFatal.map { .fatal($0) }
    }

    private mutating func consume(to i: Int) {
        start = i
        scanned = i
    }

    private mutating func fail(_ why: String) -> RESPRequest {
        failed = true
        buffer = []
        start = 0
        scanned = 0
        elements = []
        requestBytes = 0
        declared = nil
        bulkLength = nil
        return .fatal("Protocol error: \(why)")
    }

    /// A decimal, optionally negative, of at most 18 digits.
    static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var d = digits[...]
        var negative = false
        if d.first == UInt8(ascii: "-") {
            negative = true
            d = d.dropFirst()
        }
        guard !d.isEmpty, d.count <= 18 else { return nil }
        var n = 0
        for b in d {
            guard b >= 48 && b <= 57 else { return nil }
            n = n * 10 + Int(b - 48)
        }
        return negative ? -n : n
    }

    static func shown(_ b: UInt8?) -> String {
        guard let b else { return "" }
        return b >= 32 && b < 127 ? String(UnicodeScalar(b)) : "\\x" + String(b, radix: 16)
    }
}
