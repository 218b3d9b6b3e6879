/// A stable error code, the second word of every `ERR` line.
public enum ErrorCode: String, Sendable, CaseIterable {
    /// The line could not be read as a request: quoting, arity, a bad number or keyword.
    case syntax = "SYNTAX"
    /// The verb is not one the server knows.
    case unknown = "UNKNOWN"
    /// The line was longer than the server's line limit.
    case tooLong = "TOOLONG"
    /// The line was not valid UTF-8 or held a control character.
    case encoding = "ENCODING"
    /// The path names nothing.
    case notFound = "NOTFOUND"
    /// Something with that name already exists.
    case exists = "EXISTS"
    /// The verb does not apply to that path, or a value is wrong for its field.
    case invalid = "INVALID"
    /// A rule refuses the change (a stale `IF REV`, removing the selected option…).
    case conflict = "CONFLICT"
    /// `WATCH … FROM rev` asked for history older than the server keeps.
    case expired = "EXPIRED"
    /// The change could not be made durable; nothing was changed.
    case storage = "STORAGE"
    /// A server limit was reached.
    case limit = "LIMIT"
    /// The server has users and this connection has not authenticated.
    case noAuth = "NOAUTH"
    /// AUTH with a wrong name or secret (the same for both).
    case wrongPass = "WRONGPASS"
    /// The user's role or grants do not allow the request.
    case noPerm = "NOPERM"
    /// `SYNC` waited its whole timeout and the node had not yet applied the revision.
    case timeout = "TIMEOUT"
    /// The node lost its store during the commit and could not learn whether the change was
    /// saved: read it back before trying again.
    case inDoubt = "INDOUBT"
}

/// A user-facing error: a stable code and a message a person can act on.
public struct TabulaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable code.
    public var code: ErrorCode
    /// What was wrong and what to do.
    public var message: String

    /// Makes an error from a code and a message. A message that quotes a long request
    /// keeps its head and tail (what was wrong, what to do) and says what it cut, so that an
    /// error is never an echo of a 64 KiB line.
    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = TabulaError.bounded(message)
    }

    /// Longest message, in UTF-8 bytes, before the middle is cut.
    public static let longestMessage = 1024

    static func bounded(_ m: String) -> String {
        let n = m.utf8.count
        guard n > longestMessage else { return m }
        let scalars = Array(m.unicodeScalars)
        let head = String(String.UnicodeScalarView(scalars.prefix(longestMessage / 2)))
        let tail = String(String.UnicodeScalarView(scalars.suffix(longestMessage / 4)))
        return "\(head)… (\(n - head.utf8.count - tail.utf8.count) bytes cut) …\(tail)"
    }

    /// `text` as an error quotes what a client sent: whole up to 64 characters, else its
    /// first 64 and how long it was.
    public static func quoting(_ text: some StringProtocol) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > 64 else { return String(text) }
        return String(String.UnicodeScalarView(scalars.prefix(64))) + "… (\(text.utf8.count) bytes, cut)"
    }

    /// `CODE message`, as on the wire.
    public var description: String { "\(code.rawValue) \(message)" }
}
