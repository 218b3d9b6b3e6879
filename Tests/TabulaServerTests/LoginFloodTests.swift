import Foundation
import Synchronization
import Testing
import TabulaAccess
import TabulaClient
import TabulaModel
@testable import TabulaServer

/// Logins under attack over real sockets: guessers on many addresses and a client that
/// sends a wrong AUTH and hangs up, in a loop, never keep another address's user out; a
/// reload follows open sessions.
@Suite struct LoginFloodTests {
    /// Hashes that cost tens of milliseconds, so that a queue of them is felt.
    static let iterations = 100_000
    static let users: [String: UserEntry] = [
        "admin": UserEntry(
            name: "admin", role: .admin, grants: Grants(), hash: PasswordHash.make("pw-admin", iterations: iterations)),
        "ci": UserEntry(
            name: "ci", role: .write, grants: Grants(), hash: PasswordHash.make("pw-ci", iterations: iterations)),
    ]

    /// Logins hashed so far, the server's own count.
    static func hashed(_ s: Server) -> Int { s.engine.executor.stats.loginsHashed.load(ordering: .relaxed) }

    /// A quiet address's login goes ahead of the guessers' queue: while it waits, only the
    /// hashes already under way and its own are made (a queue served in arrival order would
    /// make the fifty guessers' first). Counted, not timed.
    @Test func anotherAddressLogsInAheadOfFiftyGuessingAddressesAndOneThatHangsUpThenAgainWithoutAHash() throws {
        try withServer({ $0.users = Self.users }) { s in
            let stop = Atomic<Bool>(false)
            let group = DispatchGroup()
            for k in 0..<50 {  // guessers: 127.0.0.10 … 127.0.0.59, one connection each, as fast as answered
                DispatchQueue.global().async(group: group) {
                    guard let c = try? LineConnection(host: "127.0.0.1", port: s.port, source: "127.0.0.\(10 + k)")
                    else { return }
                    _ = try? c.readLine(timeout: 5)
                    var n = 0
                    while !stop.load(ordering: .relaxed) {
                        n += 1
                        guard (try? c.send("AUTH admin wrong\(k)-\(n)")) != nil, (try? c.readLine(timeout: 20)) != nil
                        else { return }
                    }
                }
            }
            DispatchQueue.global().async(group: group) {  // connects, sends a wrong AUTH, hangs up
                while !stop.load(ordering: .relaxed) {
                    guard let c = try? LineConnection(host: "127.0.0.1", port: s.port, source: "127.0.0.60") else {
                        continue
                    }
                    try? c.send("AUTH admin churn")
                }
            }
            var flooding = true
            defer {
                if flooding {
                    stop.store(true, ordering: .relaxed)
                    group.wait()
                }
            }
            // The flood is under way once the hashers have hashed guesses for a while.
            let deadline = Date().addingTimeInterval(60)
            while Self.hashed(s) < 4 * Self.hashers(s) && Date() < deadline { usleep(10_000) }
            #expect(Self.hashed(s) >= 4 * Self.hashers(s), "the guessers never got going")
            let victim = try TabulaConnection(host: "127.0.0.1", port: s.port, timeout: 30, source: "127.0.0.200")
            let before = Self.hashed(s)
            #expect(try victim.request("AUTH ci pw-ci", timeout: 60).final == "OK ci write")
            let meanwhile = Self.hashed(s) - before
            // Its own hash, those under way on the hashers when it came, and those the other
            // hashers finish while it is hashed: a few, never the guessers' queue.
            #expect(
                meanwhile <= 3 * Self.hashers(s) + 1,
                "\(meanwhile) logins were hashed while a quiet address waited for its one")
            stop.store(true, ordering: .relaxed)
            group.wait()
            flooding = false
            let settled = Self.hashed(s)
            for _ in 0..<5 {
                let c = try TabulaConnection(host: "127.0.0.1", port: s.port, timeout: 30, source: "127.0.0.200")
                #expect(try c.request("AUTH ci pw-ci", timeout: 60).final == "OK ci write")
            }
            #expect(Self.hashed(s) == settled, "a repeated login with the same secret was hashed again")
        }
    }

    /// The server's hasher threads.
    static func hashers(_ s: Server) -> Int { max(2, ProcessInfo.processInfo.activeProcessorCount) }

    @Test func aLoginOfAConnectionThatHungUpIsDroppedUnhashed() throws {
        try withServer({ $0.users = Self.users }) { s in
            let admin = try TabulaConnection(host: "127.0.0.1", port: s.port, timeout: 30)
            #expect(try admin.request("AUTH admin pw-admin").isOK)
            for _ in 0..<200 {  // connects, sends a wrong AUTH and hangs up without reading
                let c = try LineConnection(host: "127.0.0.1", port: s.port, source: "127.0.0.61")
                try c.send("AUTH admin gone")
            }
            #expect(try eventually(timeout: 30) { try stat(admin, "logins_waiting") == 0 })
            let hashed = try stat(admin, "logins_hashed"), dropped = try stat(admin, "logins_dropped")
            // (Those not dropped were refused at the address's 32 waiting: neither is hashed.)
            #expect(hashed < 10 && dropped > 0, "hashed \(hashed), dropped \(dropped) of 200 whose connection had gone")
        }
    }

    @Test func aReloadThatChangesAUsersSecretEndsTheirSessionsWithBye() throws {
        try withServer({ $0.users = Self.users }) { s in
            let ci = try TabulaConnection(host: "127.0.0.1", port: s.port, timeout: 30)
            #expect(try ci.request("AUTH ci pw-ci").isOK)
            let admin = try TabulaConnection(host: "127.0.0.1", port: s.port, timeout: 30)
            #expect(try admin.request("AUTH admin pw-admin").isOK)
            var next = Self.users
            next["ci"] = UserEntry(
                name: "ci", role: .write, grants: Grants(), hash: PasswordHash.make("new-secret", iterations: 1_000))
            #expect(s.reloadUsers(next))
            #expect(
                try HygieneTests.lastWords(ci.line)
                    == "* BYE the secret of user ci changed in the users file; log in again with the new one")
            #expect(
                try admin.request("WHOAMI").final == "OK admin admin all paths",
                "a user whose secret stayed keeps their session")
            let again = try TabulaConnection(host: "127.0.0.1", port: s.port, timeout: 30)
            #expect(try again.request("AUTH ci pw-ci").reply.error?.code == .wrongPass)
            #expect(try again.request("AUTH ci new-secret").isOK)
        }
    }
}
