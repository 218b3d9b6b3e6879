import Foundation
import Testing
import TabulaAccess
import TabulaModel
import TabulaProtocol
import TabulaServer
import TabulaStorage

@testable import TabulaClient

/// `LiveList`s of a user whose grants hide part of each list keep their copies from events
/// alone: positions come counted in the user's own view, so no event sends a copy back to a
/// snapshot. Random writes to every list by an admin; once they stop, every copy equals the
/// user's own `LS`, each list having taken the one snapshot it began with.
@Suite(.serialized) struct LiveListGrantsTests {
    static let lists = ["/items", "/orders", "/menu/pizza", "/catalog/item-1", "/catalog", "/settings"]
    static let viewer = Grants(deny: [
        "/items/3", "/menu/pizza/margherita", "/catalog/item-1/item-1.1", "/catalog/item-3", "/settings/my-text",
    ])

    static func startServer() throws -> Server {
        var config = ServerConfig()
        config.port = 0
        config.logLevel = .error
        config.users = [
            "admin": UserEntry(
                name: "admin", role: .admin, grants: Grants(), hash: PasswordHash.make("pw-admin", iterations: 1_000)),
            "viewer": UserEntry(
                name: "viewer", role: .read, grants: viewer, hash: PasswordHash.make("pw-viewer", iterations: 1_000)),
        ]
        let s = try Server(config: config, store: MemoryStore())
        s.start()
        return s
    }

    @Test @MainActor func aRestrictedUsersListsStayExactFromEventsAloneWithOneSnapshotEach() async throws {
        let server = try await LiveListChaosTests.offMain { try Self.startServer() }
        defer { server.stop() }
        let port = server.port
        let credentials = Credentials(name: "viewer", secret: "pw-viewer")
        let live = Self.lists.map {
            LiveList(path: $0, endpoint: .tcp(host: "127.0.0.1", port: port), credentials: credentials)
        }
        let tasks = live.map { l in Task { await l.run() } }
        defer { for t in tasks { t.cancel() } }
        try await LiveListChaosTests.until("every list is live: \(live.map(\.state))") {
            live.allSatisfy { if case .live = $0.state { true } else { false } }
        }
        let changes = try await LiveListChaosTests.offMain {
            let admin = try TabulaConnection(host: "127.0.0.1", port: port, timeout: 30)
            _ = try admin.request("AUTH admin pw-admin")
            var g = SplitMix64(seed: 60)
            var changed = 0
            for _ in 0..<300 {
                let line = ListReplicaGeneratedTests.write(revision: admin.helloRevision + UInt64(changed), &g)
                // BANDS re-sections every item: a copy of /items takes a snapshot for it, as Protocol.md says.
                guard !line.hasPrefix("BANDS") else { continue }
                if try admin.request(line).reply.rev != nil { changed += 1 }
            }
            return changed
        }
        var listed: [[JSONValue]] = []
        var mismatched = Self.lists
        let deadline = Date().addingTimeInterval(30)
        while !mismatched.isEmpty && Date() < deadline {
            try await Task.sleep(nanoseconds: 20_000_000)
            listed = try await LiveListChaosTests.offMain {
                let c = try TabulaConnection(host: "127.0.0.1", port: port, timeout: 30)
                _ = try c.request("AUTH viewer pw-viewer")
                _ = try c.request("FORMAT json")
                return try Self.lists.map { try LiveListChaosTests.listed(c, $0) }
            }
            mismatched = zip(live, listed).filter { $0.replica.rows != $1 }.map(\.0.path)
        }
        let figures = live.map { "\($0.path): \($0.snapshots) snapshots, \($0.resumes) resumes" }
        #expect(changes > 100, "\(changes) changes")
        #expect(mismatched.isEmpty, "lists that differ from the user's LS: \(mismatched); \(figures)")
        #expect(live.allSatisfy { $0.snapshots == 1 }, "a snapshot taken again: \(figures)")
    }
}
