/// An HTTP/1.1 response, encoded with a Content-Length (or as the head of an event stream).
public struct HTTPResponse: Sendable {
    public var status: HTTPStatus
    public var contentType: String
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(
        _ status: HTTPStatus, contentType: String = "text/plain; charset=utf-8", headers: [(String, String)] = [],
        body: [UInt8]
    ) {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.body = body
    }

    public init(
        _ status: HTTPStatus, contentType: String = "text/plain; charset=utf-8", headers: [(String, String)] = [],
        text: String
    ) {
        self.init(status, contentType: contentType, headers: headers, body: Array(text.utf8))
    }

    /// A refusal's body: what was wrong and what to do, one line.
    public static func refusal(_ status: HTTPStatus, _ message: String, headers: [(String, String)] = [])
        -> HTTPResponse
    {
        HTTPResponse(status, headers: headers, text: "\(status.rawValue) \(status.reason): \(message)\n")
    }

    /// The bytes on the wire; `head` leaves the body out (a HEAD request), `close` says the
    /// connection ends after it, and `keepAlive` that it stays open (HTTP/1.0's keep-alive,
    /// which is not the default there).
    public func encoded(head: Bool = false, close: Bool = false, keepAlive: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(160 + (head ? 0 : body.count))
        out.append(
            contentsOf:
                "HTTP/1.1 \(status.rawValue) \(status.reason)\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
                .utf8)
        for (k, v) in headers { out.append(contentsOf: "\(k): \(v)\r\n".utf8) }
        if close {
            out.append(contentsOf: "Connection: close\r\n".utf8)
        } else if keepAlive {
            out.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        out.append(contentsOf: "\r\n".utf8)
        if !head { out.append(contentsOf: body) }
        return out
    }

    /// The head of a Server-Sent Events stream: no length, the events follow until either
    /// side closes; `chunked` (an HTTP/1.1 request), in chunks.
    public static func eventStreamHead(chunked: Bool, headers: [(String, String)] = []) -> [UInt8] {
        var out = Array(
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nX-Accel-Buffering: no\r\n"
                .utf8)
        if chunked { out.append(contentsOf: "Transfer-Encoding: chunked\r\n".utf8) }
        for (k, v) in headers { out.append(contentsOf: "\(k): \(v)\r\n".utf8) }
        out.append(contentsOf: "\r\n".utf8)
        return out
    }
}
