import Foundation
import Glibc
import Testing
import TabulaAccess
import TabulaModel
import TabulaProtocol
import TabulaServer
import TabulaStorage

@testable import TabulaClient

/// `LiveList` as an app uses it against a server with users: it logs in with its
/// credentials, a wrong secret is a state with the server's words (not `.connecting`
/// forever), its writes share one kept connection, `IF REV` of a row it does not hold is
/// an error before anything is sent, and a refused watch is tried again after a wait.
@Suite(.serialized) struct LiveListLoginTests {
    static func startServer(_ configure: (inout ServerConfig) -> Void = { _ in }) throws -> Server {
        var config = ServerConfig()
        config.port = 0
        config.logLevel = .error
        config.users = [
            "app": UserEntry(
                name: "app", role: .admin, grants: Grants(), hash: PasswordHash.make("pw-app", iterations: 1_000))
        ]
        configure(&config)
        let s = try Server(config: config, store: MemoryStore())
        s.start()
        return s
    }

    static func endpoint(_ s: Server) -> Endpoint { .tcp(host: "127.0.0.1", port: s.port) }
    static let app = Credentials(name: "app", secret: "pw-app")

    @MainActor @Test func aListWithCredentialsLogsInAndGoesLive() async throws {
        let s = try Self.startServer()
        defer { s.stop() }
        let list = LiveList(path: "/items", endpoint: Self.endpoint(s), credentials: Self.app)
        let live = await LiveListBoundsTests.run(list) { if case .live = $0.state { true } else { false } }
        #expect(live, "\(list.state)")
        #expect(list.replica.entry("/items/1") != nil)
    }

    @MainActor @Test func aWrongSecretIsRefusedWithTheServersWordsAndRunReturns() async throws {
        let s = try Self.startServer()
        defer { s.stop() }
        let list = LiveList(
            path: "/items", endpoint: Self.endpoint(s), credentials: Credentials(name: "app", secret: "wrong"))
        await list.run()  // returns by itself
        guard case .refused(let why) = list.state else {
            Issue.record("not refused: \(list.state)")
            return
        }
        #expect(why.hasPrefix("ERR WRONGPASS"), "\(why)")
    }

    @MainActor @Test func withoutCredentialsTheStateSaysTheServerAsksForALogin() async throws {
        let s = try Self.startServer()
        defer { s.stop() }
        let list = LiveList(path: "/items", endpoint: Self.endpoint(s))
        let said = await LiveListBoundsTests.run(list) {
            if case .offline(let why) = $0.state { why.contains("NOAUTH") } else { false }
        }
        #expect(said, "\(list.state)")
    }

    @MainActor @Test func writesShareOneKeptConnectionLoggedInOnce() async throws {
        let s = try Self.startServer()
        defer { s.stop() }
        let list = LiveList(path: "/items", endpoint: Self.endpoint(s), credentials: Self.app)
        for k in 1...3 {
            let r = try await list.write("FAV /items/\(k)")
            #expect(r.isOK, "\(r.final)")
        }
        #expect(list.writeConnections == 1)
    }

    @MainActor @Test func ifRevOfARowTheCopyDoesNotHoldThrowsAndSendsNothing() async throws {
        let s = try Self.startServer()
        defer { s.stop() }
        let list = LiveList(path: "/items", endpoint: Self.endpoint(s), credentials: Self.app)
        await #expect(throws: ClientError.self) { try await list.write("SET /items/4 name=Mine", ifRevOf: "/items/4") }
        // Nothing was sent: the kept connection was not even made, and the item keeps its name.
        #expect(list.writeConnections == 0)
        let shown = try await list.write("SHOW /items/4")
        #expect(!shown.data.contains { $0.contains("Mine") }, "\(shown.data)")
    }

    /// A server whose only snapshot place is held by a connection that reads nothing after
    /// its reply (over 20,000 rows of 400 bytes: more than the sockets' buffers take).
    static func placeHeld() throws -> (Server, LineConnection) {
        let s = try Self.startServer { $0.maxSnapshots = 1 }
        let filler = try TabulaConnection(host: "127.0.0.1", port: s.port)
        try filler.authenticate(Self.app)
        let name = String(repeating: "x", count: 400)
        for _ in 0..<10 {
            try filler.line.sendRaw(Array(String(repeating: "ADD /items \(name) 5\n", count: 2_000).utf8))
            for _ in 0..<2_000 { _ = try filler.readReply(timeout: 30) }
        }
        let stalled = try LineConnection(host: "127.0.0.1", port: s.port)
        var small: Int32 = 4096
        setsockopt(stalled.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        try stalled.send("AUTH app pw-app")
        #expect(try stalled.readLine(timeout: 10)?.hasPrefix("* HELLO") == true)
        #expect(try stalled.readLine(timeout: 10)?.hasPrefix("OK") == true)
        try stalled.send("WATCH /items SNAPSHOT")
        #expect(try stalled.readLine(timeout: 10)?.hasPrefix("OK watching /items") == true)
        return (s, stalled)
    }

    @MainActor @Test func aRefusedWatchIsTriedAgainUntilItIsTaken() async throws {
        let (s, stalled) = try Self.placeHeld()
        defer { s.stop() }
        let list = LiveList(path: "/orders", endpoint: Self.endpoint(s), credentials: Self.app)
        let refused = await LiveListBoundsTests.run(list) {
            if case .offline(let why) = $0.state { why.hasPrefix("ERR LIMIT") } else { false }
        }
        #expect(refused, "\(list.state)")
        shutdown(stalled.fd, Int32(SHUT_RDWR))  // the place comes back
        let live = await LiveListBoundsTests.run(list) { if case .live = $0.state { true } else { false } }
        #expect(live, "\(list.state)")
        #expect(list.connections > 1, "taken on a later connection")
    }

    @MainActor @Test func aListWhoseWatchIsRefusedWaitsLongerEachTime() async throws {
        let (s, stalled) = try Self.placeHeld()
        defer { s.stop() }
        let list = LiveList(path: "/orders", endpoint: Self.endpoint(s), credentials: Self.app)
        let started = Date()
        #expect(await LiveListBoundsTests.run(list) { $0.connections >= 6 })
        // 50 + 100 + 200 + 400 + 800 ms of waits at least between the first and the sixth.
        #expect(Date().timeIntervalSince(started) >= 1.5, "\(list.connections) connections")
        _ = stalled
    }
}
