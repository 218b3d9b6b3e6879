import Foundation
import Glibc
import TabulaAccess
import TabulaCommandLine
import TabulaModel
import TabulaServer

let passwdCommand = CommandLineSpec(
    tool: "tabulad passwd", summary: "make a line for the users file (tabulad --users FILE)",
    usage: ["tabulad passwd NAME ROLE [--allow PREFIX]… [--deny PREFIX]… [--generate]"],
    options: [
        OptionSpec(
            "--allow", value: "PREFIX", repeatable: true,
            help: "the user may reach only paths under these prefixes\n(default: every path)"),
        OptionSpec(
            "--deny", value: "PREFIX", repeatable: true, help: "cut this subtree out of what is allowed; deny wins"),
        OptionSpec(
            "--generate", help: "make a random 256-bit secret and print it once on stderr\ninstead of reading one"),
        OptionSpec("--iterations", value: "N", help: "PBKDF2 iterations (default 600000)"),
        OptionSpec("--force", help: "take a secret shorter than 12 characters"),
    ],
    epilogue: """
        ROLE is read, write or admin. The secret is read from standard input (its first line;
        at a terminal, without echo, twice, and both must match); one shorter than 12
        characters is refused unless --force. The line printed on stdout holds a salted PBKDF2-HMAC-
        SHA256 hash of it, never the secret: add it to the users file, then send tabulad
        SIGHUP (or restart it).

        EXAMPLE
          tabulad passwd ci write --allow /items --allow /orders --generate >> users.txt
        """)

/// `tabulad passwd …`: prints a users-file line; exits.
func runPasswd(_ arguments: [String]) -> Never {
    let p: ParsedArguments
    do {
        p = try passwdCommand.parseOrAnswer(arguments, version: ServerConfig.version)
    } catch {
        fail(error.message, .usage)
    }
    guard p.positionals.count == 2 else { fail("passwd takes a NAME and a ROLE (see tabulad passwd --help)", .usage) }
    let (name, roleWord) = (p.positionals[0], p.positionals[1])
    guard UsersFile.isValidName(name) else {
        fail("\(name) is not a user name: use letters, digits, . _ or -, at most 64", .usage)
    }
    guard let role = Role(rawValue: roleWord) else { fail("role \(roleWord) is not read, write or admin", .usage) }
    var allow: [String] = [], deny: [String] = []
    for (key, into) in [("--allow", 0), ("--deny", 1)] {
        for raw in p.strings(key) {
            guard let prefix = Grants.normalise(raw) else {
                fail("\(key) \(raw): a prefix is an absolute path such as /items", .usage)
            }
            if into == 0 { allow.append(prefix) } else { deny.append(prefix) }
        }
    }
    let iterations: Int
    do {
        iterations = try p.int("--iterations", in: 1_000...100_000_000) ?? PasswordHash.defaultIterations
    } catch {
        fail(error.message, .usage)
    }
    let secret: String
    if p.has("--generate") {
        secret = PasswordHash.randomBytes(32).map { String(format: "%02x", $0) }.joined()
        FileHandle.standardError.write(Data("secret for \(name) (shown once): \(secret)\n".utf8))
    } else {
        guard let s = SecretPrompt.read(prompt: "secret for \(name): "), !s.isEmpty else {
            fail("no secret on standard input (or use --generate)", .usage)
        }
        if isatty(0) != 0, SecretPrompt.read(prompt: "the same secret again: ") != s {
            fail("the two secrets differ; nothing was written, run it again", .usage)
        }
        guard s.count >= 12 || p.has("--force") else {
            fail(
                "a secret of \(s.count) characters is easy to guess: give 12 or more, use --generate, or --force",
                .usage)
        }
        secret = s
    }
    let entry = UserEntry(
        name: name, role: role, grants: Grants(allow: allow, deny: deny),
        hash: PasswordHash.make(secret, iterations: iterations))
    print(entry.line)
    exit(ExitStatus.ok.rawValue)
}
