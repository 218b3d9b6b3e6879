/// The HTTP statuses tabulad answers with.
public enum HTTPStatus: Int, Sendable {
    case ok = 200
    case permanentRedirect = 308
    case badRequest = 400
    case unauthorized = 401
    case forbidden = 403
    case notFound = 404
    case methodNotAllowed = 405
    case requestTimeout = 408
    case conflict = 409
    case gone = 410
    case payloadTooLarge = 413
    case uriTooLong = 414
    case misdirected = 421
    case tooManyRequests = 429
    case headersTooLarge = 431
    case internalError = 500
    case unavailable = 503

    /// The reason phrase.
    public var reason: String {
        switch self {
        case .ok: return "OK"
        case .permanentRedirect: return "Permanent Redirect"
        case .badRequest: return "Bad Request"
        case .unauthorized: return "Unauthorized"
        case .forbidden: return "Forbidden"
        case .notFound: return "Not Found"
        case .methodNotAllowed: return "Method Not Allowed"
        case .requestTimeout: return "Request Timeout"
        case .conflict: return "Conflict"
        case .gone: return "Gone"
        case .payloadTooLarge: return "Payload Too Large"
        case .uriTooLong: return "URI Too Long"
        case .misdirected: return "Misdirected Request"
        case .tooManyRequests: return "Too Many Requests"
        case .headersTooLarge: return "Request Header Fields Too Large"
        case .internalError: return "Internal Server Error"
        case .unavailable: return "Service Unavailable"
        }
    }
}
