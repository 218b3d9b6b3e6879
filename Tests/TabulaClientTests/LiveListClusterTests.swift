import Foundation
import Testing
import TabulaAccess
import TabulaProtocol
import TabulaServer
import TabulaStorage
import TabulaTestSupport

@testable import TabulaClient

/// `LiveList`s of one node of a 3-node cluster, through a proxy that cuts them, while
/// writes land on the two other nodes and the lists' node restarts once: every list ends
/// equal to that node's `LS` once it has applied the last write, and a list of `/items` kept
/// under `FILTER favorites` equals its `LS` under that filter; and the same for the lists of
/// a user whose grants hide part of each.
@Suite(
    .serialized,
    .enabled(if: testPostgres != nil, "needs TABULA_TEST_POSTGRES (Scripts/test starts a private PostgreSQL)"))
struct LiveListClusterTests {
    static func node(_ db: String, port: Int = 0, users: [String: UserEntry] = [:]) throws -> Server {
        var config = ServerConfig()
        config.port = port
        config.logLevel = .error
        config.users = users.isEmpty ? nil : users
        config.setHistory(40, durable: true)
        let s = try Server(config: config, store: try PostgresStore(conninfo: db))
        s.start()
        return s
    }

    @Test @MainActor func everyLiveListOfOneNodeEqualsItsListWhileOtherNodesWriteAndItRestarts() async throws {
        // Nodes start, stop and are read on threads of their own: the lists live on the main
        // actor, which a blocking call would stop (and other suites' lists with it).
        let db = try await LiveListChaosTests.offMain { try freshDatabase() }
        let (a, c, first) = try await LiveListChaosTests.offMain {
            (try Self.node(db), try Self.node(db), try Self.node(db))
        }
        var b = first
        defer { for n in [a, c] { n.stop() } }
        let proxy = try CuttingProxy(target: b.port)
        defer { proxy.stop() }
        let lists = LiveListChaosTests.lists
        let live = lists.map { LiveList(path: $0, endpoint: .tcp(host: "127.0.0.1", port: proxy.port)) }
        let favourites = LiveList(
            path: "/items", endpoint: .tcp(host: "127.0.0.1", port: proxy.port), filter: .favorites)
        let tasks = (live + [favourites]).map { l in Task { await l.run() } }
        defer { for t in tasks { t.cancel() } }
        let (pa, pc) = (a.port, c.port)
        var changes = try await LiveListChaosTests.offMain {
            try LiveListChaosTests.writes(port: pa, count: LiveListChaosTests.phaseWrites / 2, seed: 3, proxy: proxy)
        }
        let port = b.port, old = b
        b = try await LiveListChaosTests.offMain {
            old.stop()
            return try Self.node(db, port: port)
        }
        defer { b.stop() }
        proxy.cutAll()
        changes += try await LiveListChaosTests.offMain {
            try LiveListChaosTests.writes(port: pc, count: LiveListChaosTests.phaseWrites / 2, seed: 4, proxy: proxy)
        }
        proxy.cutting.store(false, ordering: .relaxed)

        let rev = try await LiveListChaosTests.offMain { () throws -> UInt64 in
            let head = try TabulaConnection(host: "127.0.0.1", port: pc, timeout: 30)
            let rev = try #require(
                UInt64(try head.request("STATS").data.first { $0.hasPrefix("revision: ") }?.dropFirst(10) ?? ""))
            let check = try TabulaConnection(host: "127.0.0.1", port: port, timeout: 30)
            #expect(try check.request("SYNC \(rev) TIMEOUT 30000").isOK)
            return rev
        }
        let deadline = Date().addingTimeInterval(60)
        var mismatched = lists
        while !mismatched.isEmpty && Date() < deadline {
            try await Task.sleep(nanoseconds: 20_000_000)
            let listed = try await LiveListChaosTests.listed(port: port, lists)
            let favouritesListed = try await LiveListChaosTests.listed(
                port: port, ["/items"], login: "FILTER favorites")
            mismatched = zip(live + [favourites], listed + favouritesListed).filter { l, rows in
                guard case .live(let at) = l.state, at >= rev else { return true }
                return l.replica.rows != rows
            }.map { $0.0 === favourites ? "/items under FILTER favorites" : $0.0.path }
        }
        let figures =
            "\(lists.count) lists and a favourites list on one of 3 nodes, \(changes) changes on the other two, \(proxy.cuts.load(ordering: .relaxed)) cuts, 1 restart, "
            + "\(live.map(\.connections).reduce(0, +)) connections, \(live.map(\.snapshots).reduce(0, +)) snapshots, \(live.map(\.resumes).reduce(0, +)) resumes; "
            + "the favourites list: \(favourites.connections) connections, \(favourites.snapshots) snapshots, \(favourites.resumes) resumes"
        print("LiveList cluster chaos:", figures, "mismatched:", mismatched)
        // (No bound on the favourites list's snapshots here: these writes include BANDS, which
        // sends a copy of /items to a snapshot, as Protocol.md says.)
        #expect(mismatched.isEmpty, "\(figures); lists that differ from LS: \(mismatched)")
    }

    /// The lists of a user whose grants hide part of each, on the node that restarts, through
    /// the cuts, while an admin writes on the other two: each ends equal to the user's own `LS`
    /// there, each connection's watch one snapshot or one resume.
    @Test @MainActor func aRestrictedUsersListsOfOneNodeEqualItsLSWhileOtherNodesWriteAndItRestarts() async throws {
        let users = LiveListGrantsTests.users()
        let db = try await LiveListChaosTests.offMain { try freshDatabase() }
        let (a, c, first) = try await LiveListChaosTests.offMain {
            (try Self.node(db, users: users), try Self.node(db, users: users), try Self.node(db, users: users))
        }
        var b = first
        defer { for n in [a, c] { n.stop() } }
        let proxy = try CuttingProxy(target: b.port)
        defer { proxy.stop() }
        let credentials = Credentials(name: "viewer", secret: "pw-viewer")
        let live = LiveListGrantsTests.lists.map {
            LiveList(path: $0, endpoint: .tcp(host: "127.0.0.1", port: proxy.port), credentials: credentials)
        }
        let tasks = live.map { l in Task { await l.run() } }
        defer { for t in tasks { t.cancel() } }
        let (pa, pc, port) = (a.port, c.port, b.port)
        var changes = try await LiveListChaosTests.offMain {
            try LiveListGrantsTests.writes(port: pa, count: 150, seed: 5, proxy: proxy)
        }
        let old = b
        b = try await LiveListChaosTests.offMain {
            old.stop()
            return try Self.node(db, port: port, users: users)
        }
        defer { b.stop() }
        proxy.cutAll()
        changes += try await LiveListChaosTests.offMain {
            try LiveListGrantsTests.writes(port: pc, count: 150, seed: 6, proxy: proxy)
        }
        proxy.cutting.store(false, ordering: .relaxed)
        try await LiveListChaosTests.offMain {
            let admin = try TabulaConnection(host: "127.0.0.1", port: port, timeout: 30)
            _ = try admin.request("AUTH admin pw-admin")
            let head = try TabulaConnection(host: "127.0.0.1", port: pc, timeout: 30)
            _ = try head.request("AUTH admin pw-admin")
            let rev = try #require(
                UInt64(try head.request("STATS").data.first { $0.hasPrefix("revision: ") }?.dropFirst(10) ?? ""))
            #expect(try admin.request("SYNC \(rev) TIMEOUT 30000").isOK)
        }
        let mismatched = try await LiveListGrantsTests.mismatched(live, port: port)
        let figures = live.map {
            "\($0.path): \($0.snapshots) snapshots, \($0.resumes) resumes, \($0.connections) connections"
        }
        print(
            "LiveList cluster grants chaos: \(changes) changes, \(proxy.cuts.load(ordering: .relaxed)) cuts; \(figures)"
        )
        #expect(mismatched.isEmpty, "lists that differ from the user's LS: \(mismatched); \(figures)")
        #expect(
            live.allSatisfy { $0.snapshots + $0.resumes <= $0.connections },
            "a snapshot taken again on a connection: \(figures)")
    }
}
