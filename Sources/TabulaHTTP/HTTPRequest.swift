/// One HTTP request as the parser completed it: what the server routes on.
public struct HTTPRequest: Sendable, Equatable {
    /// `GET`, `HEAD`, …, as sent.
    public var method: String
    /// The request target's path, percent-decoded (`/events`).
    public var path: String
    /// The query's parameters, percent-decoded, in order (`?prefix=/items&from=3`).
    public var query: [(String, String)]
    /// The headers, names in lower case, in order.
    public var headers: [(String, String)]
    /// Whether the connection stays open after the response (HTTP/1.1's default).
    public var keepAlive: Bool
    /// A POST's body (at most `HTTPParser.maxBody` bytes); empty for the other methods.
    public var body: [UInt8]
    /// Whether it was sent as HTTP/1.0, whose keep-alive a response must confirm in words
    /// (`Connection: keep-alive`), or the client waits for a close (ab -k).
    public var http10 = false

    public init(
        method: String, path: String, query: [(String, String)] = [], headers: [(String, String)] = [],
        keepAlive: Bool = true, body: [UInt8] = []
    ) {
        self.body = body
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.keepAlive = keepAlive
    }

    /// The first header named `name` (lower case).
    public func header(_ name: String) -> String? { headers.first { $0.0 == name }?.1 }

    /// The first query parameter named `name`.
    public func parameter(_ name: String) -> String? { query.first { $0.0 == name }?.1 }

    public static func == (a: HTTPRequest, b: HTTPRequest) -> Bool {
        a.method == b.method && a.path == b.path && a.keepAlive == b.keepAlive && a.http10 == b.http10
            && a.body == b.body
            && a.query.elementsEqual(b.query, by: ==) && a.headers.elementsEqual(b.headers, by: ==)
    }
}

/// What the parser made of the bytes: a request, or a refusal to answer before closing (the
/// stream cannot be read past it).
public enum HTTPParsed: Sendable, Equatable {
    case request(HTTPRequest)
    case refusal(HTTPStatus, String)
}
