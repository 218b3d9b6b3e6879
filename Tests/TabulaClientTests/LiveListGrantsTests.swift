import Foundation
import Testing
import TabulaAccess
import TabulaModel
import TabulaProtocol
import TabulaServer
import TabulaStorage
import TabulaTestSupport

@testable import TabulaClient

/// `LiveList`s of a user whose grants hide part of each list keep their copies from events
/// alone: positions and counts come in the user's own view, so no event sends a copy back to
/// a snapshot. Random writes to every list by an admin; once they stop, every copy equals the
/// user's own `LS`, each list having taken the one snapshot it began with, or, through a proxy
/// that cuts the connections and across a restart, no more snapshots than connections.
@Suite(.serialized) struct LiveListGrantsTests {
    static let lists = ["/items", "/orders", "/menu/pizza", "/catalog/item-1", "/catalog", "/settings"]
    static let viewer = Grants(deny: [
        "/items/3", "/menu/pizza/margherita", "/catalog/item-1/item-1.1", "/catalog/item-3", "/settings/my-text",
    ])

    /// An admin (`pw-admin`) and `viewer` (`pw-viewer`, read-only, with `viewer`'s grants).
    static func users() -> [String: UserEntry] {
        [
            "admin": UserEntry(
                name: "admin", role: .admin, grants: Grants(), hash: PasswordHash.make("pw-admin", iterations: 1_000)),
            "viewer": UserEntry(
                name: "viewer", role: .read, grants: viewer, hash: PasswordHash.make("pw-viewer", iterations: 1_000)),
        ]
    }

    static func startServer(port: Int = 0, sqlite: String? = nil) throws -> Server {
        var config = ServerConfig()
        config.port = port
        config.historyInMemory = 40
        config.logLevel = .error
        config.users = users()
        let store: StateStore = try sqlite.map { try SQLiteStore(path: $0, syncFull: false) } ?? MemoryStore()
        let s = try Server(config: config, store: store)
        s.start()
        return s
    }

    /// `count` random writes (no BANDS: a copy of /items takes a snapshot for it, as Protocol.md
    /// says) by the admin, paced so that `proxy`'s cuts fall among them; the changes made.
    static func writes(port: Int, count: Int, seed: UInt64, proxy: CuttingProxy? = nil) throws -> Int {
        let admin = try TabulaConnection(host: "127.0.0.1", port: port, timeout: 30)
        _ = try admin.request("AUTH admin pw-admin")
        var g = SplitMix64(seed: seed)
        var changed = 0
        for _ in 0..<count {
            let line = ListReplicaGeneratedTests.write(revision: admin.helloRevision + UInt64(changed), &g)
            guard !line.hasPrefix("BANDS") else { continue }
            if try admin.request(line).reply.rev != nil { changed += 1 }
            if proxy != nil { usleep(4_000) }
        }
        return changed
    }

    /// Waits until every list equals the user's own `LS` on the server at `port` (30 s at
    /// most); the paths of those that do not.
    @MainActor static func mismatched(_ live: [LiveList], port: Int) async throws -> [String] {
        try await LiveListChaosTests.mismatched(live, port: port, login: "AUTH viewer pw-viewer", seconds: 30).paths
    }

    @Test(arguments: ["memory", "sqlite"]) @MainActor
    func aRestrictedUsersListsTakeNoMoreSnapshotsThanConnectionsThroughCutsAndARestart(store: String) async throws {
        let file = store == "sqlite" ? NSTemporaryDirectory() + "tabula-grants-\(UUID().uuidString).sqlite" : nil
        defer { if let file { for suffix in ["", "-wal", "-shm"] { unlink(file + suffix) } } }
        var server = try await LiveListChaosTests.offMain { try Self.startServer(sqlite: file) }
        let proxy = try CuttingProxy(target: server.port)
        defer { proxy.stop() }
        let credentials = Credentials(name: "viewer", secret: "pw-viewer")
        let live = Self.lists.map {
            LiveList(path: $0, endpoint: .tcp(host: "127.0.0.1", port: proxy.port), credentials: credentials)
        }
        let tasks = live.map { l in Task { await l.run() } }
        defer { for t in tasks { t.cancel() } }
        let port = server.port
        var changes = try await LiveListChaosTests.offMain {
            try Self.writes(port: port, count: 200, seed: 1, proxy: proxy)
        }
        let old = server
        server = try await LiveListChaosTests.offMain {
            old.stop()
            return try Self.startServer(port: port, sqlite: file)
        }
        defer { server.stop() }
        proxy.cutAll()
        changes += try await LiveListChaosTests.offMain {
            try Self.writes(port: port, count: 200, seed: 2, proxy: proxy)
        }
        proxy.cutting.store(false, ordering: .relaxed)
        let mismatched = try await Self.mismatched(live, port: port)
        let figures = live.map {
            "\($0.path): \($0.snapshots) snapshots, \($0.resumes) resumes, \($0.connections) connections"
        }
        print(
            "LiveList grants chaos (\(store)): \(changes) changes, \(proxy.cuts.load(ordering: .relaxed)) cuts; \(figures)"
        )
        #expect(mismatched.isEmpty, "lists that differ from the user's LS: \(mismatched); \(figures)")
        #expect(
            live.allSatisfy { $0.snapshots + $0.resumes <= $0.connections },
            "a snapshot taken again on a connection (each connection's watch is one snapshot or one resume): \(figures)"
        )
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
        let changes = try await LiveListChaosTests.offMain { try Self.writes(port: port, count: 300, seed: 60) }
        let mismatched = try await Self.mismatched(live, port: port)
        let figures = live.map { "\($0.path): \($0.snapshots) snapshots, \($0.resumes) resumes" }
        #expect(changes > 100, "\(changes) changes")
        #expect(mismatched.isEmpty, "lists that differ from the user's LS: \(mismatched); \(figures)")
        #expect(live.allSatisfy { $0.snapshots == 1 }, "a snapshot taken again: \(figures)")
    }
}
