import Foundation
import Testing
import TabulaModel
import TabulaProtocol
import TabulaServer
import TabulaTestSupport

@testable import TabulaClient

/// A `LiveList` of `/items` kept under `FILTER favorites` holds the favourites from events
/// alone: positions counted among them, an item becoming a favourite an `add`, one ceasing to
/// be one an `rm`. Random item writes (many of them FAVs, so that the favourites come and go,
/// and at times none is left); once they stop, the copy equals `LS /items` under `FILTER
/// favorites`, having taken the one snapshot it began with, or, through a proxy that cuts its
/// connections and across a restart, no more snapshots than connections.
@Suite(.serialized) struct LiveListFavoritesTests {
    /// A random write to `/items`: half of them FAVs (of 8 items, so that all may be off).
    static func write(_ g: inout SplitMix64) -> String {
        let item = "/items/\(Int.random(in: 1...8, using: &g))"
        let price = Int.random(in: 1...120, using: &g)
        switch Int.random(in: 0..<12, using: &g) {
        case 0: return "ADD /items Fav\(price) \(price)"
        case 1: return "SET \(item) value=\(price)"
        case 2: return "MV \(item) \(Int.random(in: 1...4, using: &g))"
        case 3: return "RM \(item)"
        case 4, 5: return "FAV \(item) off"
        default: return "FAV \(item)"
        }
    }

    /// `count` random writes to the server at `port`, paced so that `proxy`'s cuts fall among
    /// them; the changes made.
    static func writes(port: Int, count: Int, seed: UInt64, paced: Bool) throws -> Int {
        let c = try TabulaConnection(host: "127.0.0.1", port: port, timeout: 30)
        var g = SplitMix64(seed: seed)
        var changed = 0
        for _ in 0..<count {
            if try c.request(write(&g)).reply.rev != nil { changed += 1 }
            if paced { usleep(4_000) }
        }
        return changed
    }

    @MainActor static func mismatched(_ list: LiveList, port: Int) async throws -> [String] {
        try await LiveListChaosTests.mismatched([list], port: port, login: "FILTER favorites", seconds: 30).paths
    }

    @Test(arguments: ["memory", "sqlite"]) @MainActor
    func aFavouritesListTakesNoMoreSnapshotsThanConnectionsThroughCutsAndARestart(store: String) async throws {
        let file = store == "sqlite" ? NSTemporaryDirectory() + "tabula-favs-\(UUID().uuidString).sqlite" : nil
        defer { if let file { for suffix in ["", "-wal", "-shm"] { unlink(file + suffix) } } }
        var server = try await LiveListChaosTests.offMain { try LiveListChaosTests.startServer(sqlite: file) }
        let proxy = try CuttingProxy(target: server.port)
        defer { proxy.stop() }
        let list = LiveList(path: "/items", endpoint: .tcp(host: "127.0.0.1", port: proxy.port), filter: .favorites)
        let task = Task { await list.run() }
        defer { task.cancel() }
        let port = server.port
        var changes = try await LiveListChaosTests.offMain {
            try Self.writes(port: port, count: 200, seed: 1, paced: true)
        }
        let old = server
        server = try await LiveListChaosTests.offMain {
            old.stop()
            return try LiveListChaosTests.startServer(port: port, sqlite: file)
        }
        defer { server.stop() }
        proxy.cutAll()
        changes += try await LiveListChaosTests.offMain {
            try Self.writes(port: port, count: 200, seed: 2, paced: true)
        }
        proxy.cutting.store(false, ordering: .relaxed)
        let mismatched = try await Self.mismatched(list, port: port)
        let figures = "\(list.snapshots) snapshots, \(list.resumes) resumes, \(list.connections) connections"
        print(
            "LiveList favourites chaos (\(store)): \(changes) changes, \(proxy.cuts.load(ordering: .relaxed)) cuts; \(figures)"
        )
        #expect(mismatched.isEmpty, "the copy differs from LS under FILTER favorites: \(list.replica.rows); \(figures)")
        #expect(list.snapshots <= list.connections, "a snapshot without a new connection: \(figures)")
    }

    @Test @MainActor func aFavouritesListStaysExactFromEventsAloneWithOneSnapshot() async throws {
        let server = try await LiveListChaosTests.offMain { try LiveListChaosTests.startServer(sqlite: nil) }
        defer { server.stop() }
        let port = server.port
        let list = LiveList(path: "/items", endpoint: .tcp(host: "127.0.0.1", port: port), filter: .favorites)
        let task = Task { await list.run() }
        defer { task.cancel() }
        try await LiveListChaosTests.until("the list is live, not \(list.state)") {
            if case .live = list.state { true } else { false }
        }
        let changes = try await LiveListChaosTests.offMain {
            try Self.writes(port: port, count: 500, seed: 60, paced: false)
        }
        let mismatched = try await Self.mismatched(list, port: port)
        #expect(changes > 50, "\(changes) changes")
        #expect(mismatched.isEmpty, "the copy differs from LS under FILTER favorites: \(list.replica.rows)")
        #expect(list.snapshots == 1, "\(list.snapshots) snapshots, \(list.resumes) resumes")
    }

    /// `FILTER favorites` is taken while no item is a favourite: a copy cut off then comes back.
    @Test @MainActor func aFavouritesListReconnectsWhileNoItemIsAFavourite() async throws {
        let server = try await LiveListChaosTests.offMain { try LiveListChaosTests.startServer(sqlite: nil) }
        defer { server.stop() }
        let proxy = try CuttingProxy(target: server.port)
        defer { proxy.stop() }
        proxy.cutting.store(false, ordering: .relaxed)
        let port = server.port
        let list = LiveList(path: "/items", endpoint: .tcp(host: "127.0.0.1", port: proxy.port), filter: .favorites)
        let task = Task { await list.run() }
        defer { task.cancel() }
        try await LiveListChaosTests.until("the list is live, not \(list.state)") {
            if case .live = list.state { true } else { false }
        }
        try await LiveListChaosTests.offMain {
            let c = try TabulaConnection(host: "127.0.0.1", port: port, timeout: 30)
            for id in 1...4 { _ = try c.request("FAV /items/\(id) off") }
        }
        try await LiveListChaosTests.until("no favourite is shown: \(list.replica.entries.map(\.path))") {
            list.replica.entries.isEmpty
        }
        proxy.cutAll()
        try await LiveListChaosTests.until("the list is live again on a new connection, not \(list.state)") {
            if case .live = list.state { list.connections == 2 } else { false }
        }
        _ = try await LiveListChaosTests.offMain {
            try TabulaConnection(host: "127.0.0.1", port: port, timeout: 30).request("FAV /items/3")
        }
        try await LiveListChaosTests.until("the new favourite is shown: \(list.replica.entries.map(\.path))") {
            list.replica.entries.map(\.path) == ["/items/3"]
        }
    }
}
