import TabulaProtocol

/// One decoded line: a request, or what was wrong with it.
enum LineUnit: Sendable {
    case request(Request)
    case failure(tag: String?, TabulaError)
}
