import Foundation
import TabulaHTTP
import TabulaProtocol

/// What each HTTP path serves: pure (no I/O), so every route and refusal is tested alone.
enum HTTPRoutes {
    /// What an authorized request gets.
    enum Route: Equatable {
        /// A page or asset built into the binary.
        case page([UInt8], contentType: String)
        /// `/livez`: the process serves.
        case live
        /// `/readyz`, `/healthz`: whether it should be sent traffic.
        case ready
        case metrics
        case clients
        /// A read of the model through the request pipeline (`/api/ls`, `/api/show`).
        case read(Request)
        /// `/events`: a stream of the changes under the prefix, after the revision.
        case events(prefix: String, from: UInt64?)
        case refusal(HTTPStatus, String)
    }

    /// The lists' pages (and `/`, their index).
    static let pages: Set<String> = ["/", "/settings", "/catalog", "/items", "/menu"]

    static func route(_ r: HTTPRequest) -> Route {
        switch r.path {
        case let p where pages.contains(p): return .page(WebAssets.page, contentType: "text/html; charset=utf-8")
        case "/static/tabula.js": return .page(WebAssets.script, contentType: "text/javascript; charset=utf-8")
        case "/static/tabula.css": return .page(WebAssets.style, contentType: "text/css; charset=utf-8")
        case "/livez": return .live
        case "/readyz", "/healthz": return .ready
        case "/metrics": return .metrics
        case "/clients": return .clients
        case "/api/ls":
            guard let path = absolutePath(r) else { return missingPath }
            var limit: Int?
            if let l = r.parameter("limit") {
                // LS's own bound: a page is at most RequestParser.maxLimit rows, however asked.
                guard let n = Int(l), (1...RequestParser.maxLimit).contains(n) else {
                    return .refusal(.badRequest, "limit must be a whole number of rows from 1 to \(RequestParser.maxLimit), not '\(TabulaError.quoting(l))'")
                }
                limit = n
            }
            return .read(Request(command: .ls(path: path, limit: limit, after: r.parameter("after"))))
        case "/api/show":
            guard let path = absolutePath(r) else { return missingPath }
            return .read(Request(command: .show(path: path)))
        case "/events":
            let prefix = r.parameter("prefix") ?? "/"
            guard prefix.hasPrefix("/") else { return .refusal(.badRequest, "prefix must be an absolute path such as /items") }
            // A reconnecting browser says the last event it had: that wins over the page's `from`.
            guard let text = r.header("last-event-id") ?? r.parameter("from") else { return .events(prefix: prefix, from: nil) }
            guard let rev = UInt64(text.trimmingCharacters(in: .whitespaces)) else {
                return .refusal(.badRequest, "from (or Last-Event-ID) must be a revision number, not '\(TabulaError.quoting(text))'")
            }
            return .events(prefix: prefix, from: rev)
        default:
            return .refusal(.notFound, "no page \(TabulaError.quoting(r.path)); / lists the pages, and /metrics, /livez, /readyz, /clients and /events are served")
        }
    }

    private static let missingPath = Route.refusal(.badRequest, "give the path to read as ?path=/items (an absolute path)")

    private static func absolutePath(_ r: HTTPRequest) -> String? {
        guard let p = r.parameter("path"), p.hasPrefix("/") else { return nil }
        return p
    }

    /// Which `--http-open` opening serves `path`, if any.
    static func opening(of path: String) -> HTTPOpening? {
        switch path {
        case "/metrics": return .metrics
        case "/livez", "/readyz", "/healthz": return .health
        default: return nil
        }
    }

    /// The name and secret of a `Basic` Authorization header; nil when it is not one.
    static func basicCredentials(_ header: String) -> (String, String)? {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }
}

extension HTTPStatus {
    /// The status and message of an error reply line (JSON), or nil when the reply is OK.
    static func failure(ofReplyLine line: ArraySlice<UInt8>) -> (status: HTTPStatus, message: String)? {
        guard !line.starts(with: Array(#"{"ok":true"#.utf8)) else { return nil }
        guard case .object(let pairs)? = JSONParser.parse(String(decoding: line, as: UTF8.self)) else { return (.internalError, "an unreadable reply") }
        let code = pairs.first { $0.0 == "code" }.flatMap { if case .string(let s) = $0.1 { return ErrorCode(rawValue: s) } else { return nil } }
        let message = pairs.first { $0.0 == "message" }.flatMap { if case .string(let s) = $0.1 { return s } else { return nil } } ?? ""
        return (code.map(HTTPStatus.init(code:)) ?? .internalError, message)
    }

    /// The status that says what an error code says.
    init(code: ErrorCode) {
        switch code {
        case .notFound: self = .notFound
        case .noAuth, .wrongPass: self = .unauthorized
        case .noPerm: self = .forbidden
        case .limit: self = .tooManyRequests
        case .expired: self = .gone
        case .exists, .conflict: self = .conflict
        case .storage, .timeout, .inDoubt: self = .unavailable
        case .syntax, .unknown, .tooLong, .encoding, .invalid: self = .badRequest
        }
    }
}
