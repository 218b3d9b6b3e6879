import Testing
import TabulaModel

@testable import TabulaAccess

/// The users file and the secret hash.
@Suite struct UsersFileTests {
    static let hash = PasswordHash.make("s3cret", iterations: 1_000)

    @Test func aHashVerifiesItsSecretOnlyAndReadsBackFromItsText() {
        #expect(Self.hash.verify("s3cret"))
        #expect(!Self.hash.verify("s3cret "))
        #expect(!Self.hash.verify(""))
        let back = PasswordHash(encoded: Self.hash.encoded)
        #expect(back == Self.hash)
        #expect(back?.verify("s3cret") == true)
        #expect(!Self.hash.encoded.contains("s3cret"))
        #expect(PasswordHash.make("s3cret", iterations: 1_000) != Self.hash, "every hash has its own salt")
    }

    @Test func aFileWithCRLFLineEndsAndAByteOrderMarkReadsAsTheSameUsers() throws {
        let lines = ["# users", "ci write \(Self.hash.encoded) allow=/items", "admin admin \(Self.hash.encoded)", ""]
        let plain = try UsersFile.parse(lines.joined(separator: "\n")).get()
        let windows = try UsersFile.parse("\u{FEFF}" + lines.joined(separator: "\r\n")).get()
        #expect(windows == plain)
        #expect(windows["ci"]?.grants.allow == ["/items"])
    }

    @Test func theDecoyMatchesNoSecretAndCostsTheIterationsAsked() {
        let d = PasswordHash.decoy(iterations: 1_000)
        #expect(d.iterations == 1_000)
        #expect(!d.verify("") && !d.verify("s3cret"))
    }

    @Test func aFileListsUsersWithRolesAndGrants() throws {
        let text = """
            # users
            ci    write  \(Self.hash.encoded)  allow=/items allow=/orders/ deny=/items/7

            admin admin  \(Self.hash.encoded)   # everything
            """
        let users = try UsersFile.parse(text).get()
        #expect(users.count == 2)
        #expect(users["ci"]?.role == .write)
        #expect(users["ci"]?.grants == Grants(allow: ["/items", "/orders"], deny: ["/items/7"]))
        #expect(users["admin"]?.grants.isUnrestricted == true)
        #expect(try UsersFile.parse(users["ci"]!.line).get()["ci"] == users["ci"])
    }

    @Test func eachKindOfBadLineIsNamedWithItsNumber() {
        let h = Self.hash.encoded
        let cases: [(String, String)] = [
            ("ci", "line 1: expected NAME ROLE HASH [allow=PREFIX]… [deny=PREFIX]…; make a line with tabulad passwd"),
            ("c/i write \(h)", "line 1: c/i is not a user name (letters, digits, . _ -, at most 64)"),
            ("ci root \(h)", "line 1: role root is not read, write or admin"),
            ("ci read plaintext", "line 1: the third word is not a pbkdf2-sha256 hash; make one with tabulad passwd"),
            ("ci read \(h) allow=items", "line 1: allow=items is not allow=/PATH or deny=/PATH"),
            ("ci read \(h) let=/x", "line 1: let=/x is not allow=/PATH or deny=/PATH"),
            ("#\nci read \(h)\nci write \(h)", "line 3: user ci is named twice"),
        ]
        for (text, message) in cases {
            guard case .failure(let p) = UsersFile.parse(text) else {
                Issue.record("accepted: \(text)")
                continue
            }
            #expect(p.description == message)
        }
    }
}

@Suite struct VerifiedSecretsTests {
    @Test func aSecretIsKnownOnlyForItsNameAndLoadOnceRemembered() {
        var v = VerifiedSecrets()
        #expect(!v.knows("ci", "s3cret", generation: 1))
        v.remember("ci", "s3cret", generation: 1)
        #expect(v.knows("ci", "s3cret", generation: 1))
        #expect(!v.knows("ci", "s3cret ", generation: 1))
        #expect(!v.knows("ci", "s3cret", generation: 2), "a reload forgets")
        #expect(!v.knows("ops", "s3cret", generation: 1))
        #expect(!v.knows("c", "i\u{0}s3cret", generation: 1) && !v.knows("ci\u{0}s3", "cret", generation: 1))
    }
}
