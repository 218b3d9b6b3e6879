import TabulaModel

/// One user as the users file names it.
public struct UserEntry: Sendable, Hashable {
    public let name: String
    public let role: Role
    public let grants: Grants
    public let hash: PasswordHash

    public init(name: String, role: Role, grants: Grants, hash: PasswordHash) {
        self.name = name
        self.role = role
        self.grants = grants
        self.hash = hash
    }

    /// The line for the users file: `NAME ROLE HASH [allow=PREFIX]… [deny=PREFIX]…`.
    public var line: String {
        ([name, role.rawValue, hash.encoded] + grants.allow.map { "allow=\($0)" } + grants.deny.map { "deny=\($0)" })
            .joined(separator: " ")
    }
}

/// The users file: one user a line, `#` starts a comment, blank lines ignored.
///
///     # name  role   hash                                  grants
///     ci      write  pbkdf2-sha256$600000$…$…              allow=/items allow=/orders deny=/items/7
public enum UsersFile {
    /// A line that cannot be read: its number and what is wrong.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public let line: Int
        public let message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// The users, by name; the first problem found otherwise (a file is taken whole or not).
    /// Line ends may be LF or CRLF, and a UTF-8 byte-order mark may begin the file.
    public static func parse(_ text: String) -> Result<[String: UserEntry], Problem> {
        var users: [String: UserEntry] = [:]
        let body = text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
        // Split on scalars: as Characters, "\r\n" is one grapheme, never equal to "\n".
        for (i, raw) in body.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = raw.prefix { $0 != "#" }
            let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map {
                String(String.UnicodeScalarView($0))
            }
            if words.isEmpty { continue }
            switch entry(words) {
            case .failure(let message): return .failure(Problem(line: i + 1, message: message))
            case .success(let u):
                if users[u.name] != nil {
                    return .failure(Problem(line: i + 1, message: "user \(u.name) is named twice"))
                }
                users[u.name] = u
            }
        }
        return .success(users)
    }

    /// Whether `name` may be a user name: 1 to 64 letters, digits, `.`, `_` or `-`.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
            }
    }

    private enum Parsed { case success(UserEntry), failure(String) }

    private static func entry(_ w: [String]) -> Parsed {
        guard w.count >= 3 else {
            return .failure("expected NAME ROLE HASH [allow=PREFIX]… [deny=PREFIX]…; make a line with tabulad passwd")
        }
        guard isValidName(w[0]) else {
            return .failure("\(w[0].prefix(70)) is not a user name (letters, digits, . _ -, at most 64)")
        }
        guard let role = Role(rawValue: w[1]) else {
            return .failure("role \(w[1].prefix(40)) is not read, write or admin")
        }
        guard let hash = PasswordHash(encoded: w[2]) else {
            return .failure("the third word is not a pbkdf2-sha256 hash; make one with tabulad passwd")
        }
        var allow: [String] = [], deny: [String] = []
        for g in w.dropFirst(3) {
            let kv = g.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2, kv[0] == "allow" || kv[0] == "deny", let p = Grants.normalise(kv[1]) else {
                return .failure("\(g.prefix(70)) is not allow=/PATH or deny=/PATH")
            }
            if kv[0] == "allow" { allow.append(p) } else { deny.append(p) }
        }
        return .success(UserEntry(name: w[0], role: role, grants: Grants(allow: allow, deny: deny), hash: hash))
    }
}
