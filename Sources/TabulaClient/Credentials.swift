import TabulaProtocol

/// A user's name and secret for `AUTH`. Printing it never shows the secret.
public struct Credentials: Sendable, CustomStringConvertible {
    public let name: String
    public let secret: String

    public init(name: String, secret: String) {
        self.name = name
        self.secret = secret
    }

    public var description: String { "user \(name)" }

    /// The `AUTH` request line that logs in as this user (the secret quoted as needed).
    public var authLine: String { "AUTH \(name) \(Quoting.quote(secret))" }

    /// Whether a typed line carries a secret (an `AUTH`, tagged or not, in any case), and
    /// so is never written to the history.
    public static func holdsSecret(_ line: String) -> Bool {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).prefix(2)
        if words.first?.hasPrefix("#") == true { words = words.dropFirst() }
        return words.first.map { $0.uppercased() == "AUTH" } ?? false
    }
}

extension TabulaConnection {
    /// Logs in; throws `ClientError.refused` with the server's reply when it says no.
    public func authenticate(_ credentials: Credentials, timeout: Double = 30) throws {
        let r = try request(credentials.authLine, timeout: timeout)
        guard r.isOK else { throw ClientError.refused("the server refused \(credentials): \(r.final)") }
    }
}
