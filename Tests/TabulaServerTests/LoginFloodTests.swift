import Foundation
import Synchronization
import Testing
import TabulaAccess
import TabulaClient
import TabulaModel
import TabulaServer

/// Logins under attack over real sockets: guessers on many addresses and a client that
/// sends a wrong AUTH and hangs up, in a loop, never keep another address's user out; a
/// reload follows open sessions.
@Suite struct LoginFloodTests {
    /// Hashes that cost tens of milliseconds, so that a queue of them is felt.
    static let iterations = 100_000
    static let users: [String: UserEntry] = [
        "admin": UserEntry(name: "admin", role: .admin, grants: Grants(), hash: PasswordHash.make("pw-admin", iterations: iterations)),
        "ci": UserEntry(name: "ci", role: .write, grants: Grants(), hash: PasswordHash.make("pw-ci", iterations: iterations)),
    ]

    /// Sends `line` on `c`; its reply's final line and how long it took (seconds).
    static func timed(_ c: TabulaConnection, _ line: String) throws -> (String, Double) {
        let start = Date()
        let r = try c.request(line, timeout: 30)
        return (r.final, Date().timeIntervalSince(start))
    }

    @Test func anotherAddressLogsInWithin2sAndAgainWithin50msWhileFiftyAddressesGuessAndOneHangsUp() throws {
        try withServer({ $0.users = Self.users }) { s in
            let stop = Atomic<Bool>(false)
            let group = DispatchGroup()
            for k in 0..<50 {  // guessers: 127.0.0.10 … 127.0.0.59, one connection each, as fast as answered
                DispatchQueue.global().async(group: group) {
                    guard let c = try? LineConnection(host: "127.0.0.1", port: s.port, source: "127.0.0.\(10 + k)") else { return }
                    _ = try? c.readLine(timeout: 5)
                    var n = 0
                    while !stop.load(ordering: .relaxed) {
                        n += 1
                        guard (try? c.send("AUTH admin wrong\(k)-\(n)")) != nil, (try? c.readLine(timeout: 20)) != nil else { return }
                    }
                }
            }
            DispatchQueue.global().async(group: group) {  // connects, sends a wrong AUTH, hangs up
                while !stop.load(ordering: .relaxed) {
                    guard let c = try? LineConnection(host: "127.0.0.1", port: s.port, source: "127.0.0.60") else { continue }
                    try? c.send("AUTH admin churn")
                }
            }
            defer {
                stop.store(true, ordering: .relaxed)
                group.wait()
            }
            Thread.sleep(forTimeInterval: 1)  // the flood is under way (the load, not a wait for a signal)
            let victim = try TabulaConnection(host: "127.0.0.1", port: s.port, timeout: 30, source: "127.0.0.200")
            let (reply, first) = try Self.timed(victim, "AUTH ci pw-ci")
            #expect(reply == "OK ci write")
            #expect(first < 2, "a first login from a quiet address took \(first) s")
            var again: [Double] = []
            for _ in 0..<5 {
                let c = try TabulaConnection(host: "127.0.0.1", port: s.port, timeout: 30, source: "127.0.0.200")
                let (r, t) = try Self.timed(c, "AUTH ci pw-ci")
                #expect(r == "OK ci write")
                again.append(t)
            }
            #expect(again.sorted()[2] < 0.05, "repeated logins took \(again) s")
        }
    }

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
            next["ci"] = UserEntry(name: "ci", role: .write, grants: Grants(), hash: PasswordHash.make("new-secret", iterations: 1_000))
            #expect(s.reloadUsers(next))
            #expect(try HygieneTests.lastWords(ci.line) == "* BYE the secret of user ci changed in the users file; log in again with the new one")
            #expect(try admin.request("WHOAMI").final == "OK admin admin all paths", "a user whose secret stayed keeps their session")
            let again = try TabulaConnection(host: "127.0.0.1", port: s.port, timeout: 30)
            #expect(try again.request("AUTH ci pw-ci").reply.error?.code == .wrongPass)
            #expect(try again.request("AUTH ci new-secret").isOK)
        }
    }
}
