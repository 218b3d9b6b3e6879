import CHTTPParser

/// Cuts HTTP/1.1 requests out of a connection's bytes with Node.js's http_parser (2.9),
/// bounding each part: the request target (`maxTarget`, else 414), the headers (`maxHeaders`
/// of them in `maxHeaderBytes`, else 431) and the body (`maxBody`, else 413; kept for POST,
/// skipped for the others). GET, HEAD and POST are read (else 405). After a refusal the
/// stream cannot be read on, so the parser takes nothing more: the server answers it and
/// closes. No I/O.
public final class HTTPParser {
    public static let maxTarget = 8 * 1024
    public static let maxHeaderBytes = 16 * 1024
    public static let maxHeaders = 64
    public static let maxBody = 64 * 1024

    private let parser: UnsafeMutablePointer<http_parser>
    private let settings: UnsafeMutablePointer<http_parser_settings>
    private var target: [UInt8] = []
    private var field: [UInt8] = []
    private var value: [UInt8] = []
    private var headers: [(String, String)] = []
    private var headerBytes = 0
    private var bodyBytes = 0
    private var body: [UInt8] = []
    private var keepsBody = false
    private var inMessage = false
    private var lastWasValue = false
    private var refusal: (HTTPStatus, String)?
    private var parsed: [HTTPParsed] = []
    /// A refusal was made: nothing more is read.
    public private(set) var failed = false

    public init() {
        parser = .allocate(capacity: 1)
        settings = .allocate(capacity: 1)
        http_parser_init(parser, HTTP_REQUEST)
        http_parser_settings_init(settings)
        settings.pointee.on_message_begin = { p in HTTPParser.of(p).begin() }
        settings.pointee.on_url = { p, at, n in HTTPParser.of(p).onTarget(at, n) }
        settings.pointee.on_header_field = { p, at, n in HTTPParser.of(p).onField(at, n) }
        settings.pointee.on_header_value = { p, at, n in HTTPParser.of(p).onValue(at, n) }
        settings.pointee.on_headers_complete = { p in HTTPParser.of(p).headersComplete() }
        settings.pointee.on_body = { p, at, n in HTTPParser.of(p).onBody(at, n) }
        settings.pointee.on_message_complete = { p in HTTPParser.of(p).complete() }
        parser.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        parser.deallocate()
        settings.deallocate()
    }

    /// Bytes of the request in progress (none between requests): what a slow client holds.
    public var partialCount: Int { inMessage ? target.count + headerBytes + bodyBytes + 1 : 0 }

    /// Takes bytes read from the connection; returns the requests (and at most one refusal,
    /// last) they complete.
    public func feed(_ bytes: UnsafeRawBufferPointer) -> [HTTPParsed] {
        guard !failed, bytes.count > 0 else { return [] }
        parsed.removeAll(keepingCapacity: true)
        let base = bytes.baseAddress!.assumingMemoryBound(to: CChar.self)
        let used = http_parser_execute(parser, settings, base, bytes.count)
        let errno = parser.pointee.http_errno
        if errno != 0 {
            // A bad header byte is refused in the same words whichever check meets it first
            // (http_parser's, or the name check below), so where reads cut does not matter.
            let malformed =
                errno == HPE_INVALID_HEADER_TOKEN.rawValue
                ? HTTPParser.badHeader
                : "malformed request (\(String(cString: http_errno_description(http_errno(errno))))); send HTTP/1.1 requests such as GET /metrics HTTP/1.1"
            fail(refusal ?? (.badRequest, malformed))
        } else if parser.pointee.upgrade != 0 || (used < bytes.count && !failed) {
            // An upgrade (WebSocket, h2c) is not offered: the request is answered as a plain
            // one, and then the connection closes (what follows it is not HTTP/1.1).
            failed = true
            if case .request(var r)? = parsed.last {
                r.keepAlive = false
                parsed[parsed.count - 1] = .request(r)
            }
        }
        return parsed
    }

    /// The peer closed its side: a request cut short is malformed.
    public func finish() -> [HTTPParsed] {
        guard !failed, inMessage else { return [] }
        parsed.removeAll()
        fail((.badRequest, "the request ended before it was complete"))
        return parsed
    }

    private static func of(_ p: UnsafeMutablePointer<http_parser>?) -> HTTPParser {
        Unmanaged<HTTPParser>.fromOpaque(p!.pointee.data).takeUnretainedValue()
    }

    private func fail(_ r: (HTTPStatus, String)) {
        failed = true
        inMessage = false
        parsed.append(.refusal(r.0, r.1))
    }

    private func refuse(_ status: HTTPStatus, _ message: String) -> Int32 {
        refusal = (status, message)
        return -1  // any other value than 0, 1 or 2 (which on_headers_complete uses to skip a body)
    }

    private func begin() -> Int32 {
        inMessage = true
        target.removeAll(keepingCapacity: true)
        headers.removeAll(keepingCapacity: true)
        field.removeAll(keepingCapacity: true)
        value.removeAll(keepingCapacity: true)
        headerBytes = 0
        bodyBytes = 0
        body.removeAll(keepingCapacity: true)
        keepsBody = false
        lastWasValue = false
        return 0
    }

    private func onTarget(_ at: UnsafePointer<CChar>?, _ n: Int) -> Int32 {
        guard target.count + n <= HTTPParser.maxTarget else {
            return refuse(
                .uriTooLong, "the request target is longer than \(HTTPParser.maxTarget) bytes; ask for less in one URL")
        }
        target.append(contentsOf: UnsafeRawBufferPointer(start: at, count: n))
        return 0
    }

    private func onField(_ at: UnsafePointer<CChar>?, _ n: Int) -> Int32 {
        if lastWasValue { if let r = endHeader() { return r } }
        let bytes = UnsafeRawBufferPointer(start: at, count: n)
        // RFC 9112 5.1: no whitespace between a field name and its colon (a request
        // smuggling shape); a name is a token. Each byte is checked as it arrives, the size
        // and then the byte, so the first broken rule is the same wherever reads cut.
        let room = HTTPParser.maxHeaderBytes - headerBytes
        if let bad = bytes.firstIndex(where: { !HTTPParser.isTokenByte($0) }), bad < room {
            return refuse(.badRequest, HTTPParser.badHeader)
        }
        headerBytes += n
        guard headerBytes <= HTTPParser.maxHeaderBytes else {
            return refuse(
                .headersTooLarge,
                "the headers are larger than \(HTTPParser.maxHeaderBytes) bytes; send fewer or shorter ones")
        }
        field.append(contentsOf: bytes)
        return 0
    }

    /// The refusal of a header holding a byte it may not.
    static let badHeader =
        "a header holds a byte it may not: a name is a token (letters, digits and !#$%&'*+-.^_`|~) with no space before its colon, and a value holds no control character; send Name: value lines"

    private func onValue(_ at: UnsafePointer<CChar>?, _ n: Int) -> Int32 {
        lastWasValue = true
        headerBytes += n
        guard headerBytes <= HTTPParser.maxHeaderBytes else {
            return refuse(
                .headersTooLarge,
                "the headers are larger than \(HTTPParser.maxHeaderBytes) bytes; send fewer or shorter ones")
        }
        value.append(contentsOf: UnsafeRawBufferPointer(start: at, count: n))
        return 0
    }

    /// RFC 9110 5.6.2's tchar: what a header name is made of (checked for every byte of
    /// every header name, so without building anything).
    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"),
            UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default: return false
        }
    }

    /// Files the header just read; a refusal past `maxHeaders`, or for an empty name.
    private func endHeader() -> Int32? {
        lastWasValue = false
        guard headers.count < HTTPParser.maxHeaders else {
            return refuse(.headersTooLarge, "more than \(HTTPParser.maxHeaders) headers; send fewer")
        }
        guard !field.isEmpty else { return refuse(.badRequest, HTTPParser.badHeader) }
        headers.append((String(decoding: field, as: UTF8.self).lowercased(), String(decoding: value, as: UTF8.self)))
        field.removeAll(keepingCapacity: true)
        value.removeAll(keepingCapacity: true)
        return nil
    }

    private func headersComplete() -> Int32 {
        if lastWasValue { if let r = endHeader() { return r } }
        let method = String(cString: http_method_str(http_method(UInt32(parser.pointee.method))))
        guard method == "GET" || method == "HEAD" || method == "POST" else {
            return refuse(
                .methodNotAllowed,
                "\(method) is not served: pages, streams and metrics are read with GET (or HEAD), and writes are POST /api/VERB"
            )
        }
        keepsBody = method == "POST"
        let length = parser.pointee.content_length
        if length != UInt64.max && length > UInt64(HTTPParser.maxBody) {
            return refuse(
                .payloadTooLarge,
                "a body of \(length) bytes; a request body is at most \(HTTPParser.maxBody) bytes (a POST's arguments; other bodies are skipped)"
            )
        }
        return 0
    }

    private func onBody(_ at: UnsafePointer<CChar>?, _ n: Int) -> Int32 {
        bodyBytes += n
        guard bodyBytes <= HTTPParser.maxBody else {
            return refuse(
                .payloadTooLarge,
                "a body over \(HTTPParser.maxBody) bytes; a request body is at most that (a POST's arguments; other bodies are skipped)"
            )
        }
        if keepsBody { body.append(contentsOf: UnsafeRawBufferPointer(start: at, count: n)) }
        return 0
    }

    private func complete() -> Int32 {
        inMessage = false
        let method = String(cString: http_method_str(http_method(UInt32(parser.pointee.method))))
        let (path, query) = HTTPParser.split(target)
        let keepAlive = http_should_keep_alive(parser) != 0
        var r = HTTPRequest(
            method: method, path: path, query: query, headers: headers, keepAlive: keepAlive, body: body)
        r.http10 = parser.pointee.http_major == 1 && parser.pointee.http_minor == 0
        parsed.append(.request(r))
        return 0
    }
}
