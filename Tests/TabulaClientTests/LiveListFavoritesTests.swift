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
    /// A random write to one of `ids` (the items there are), or an addition: two in three
    /// are FAVs (a third of them off), so that favourites come and go, and at times none is left.
    static func write(_ ids: [Int], _ g: inout SplitMix64) -> String {
        let price = Int.random(in: 1...120, using: &g)
        guard let id = ids.randomElement(using: &g), Int.random(in: 0..<10, using: &g) > 0 else {
            return "ADD /items Fav\(price) \(price)"
        }
        let item = "/items/\(id)"
        switch Int.random(in: 0..<12, using: &g) {
        case 0: return "SET \(item) value=\(price)"
        case 1: return "MV \(item) \(Int.random(in: 1...4, using: &g))"
        case 2: return ids.count > 4 ? "RM \(item)" : "FAV \(item)"
        case 3, 4, 5: return "FAV \(item) off"
        default: return "FAV \(item) on"
        }
    }

    /// `count` random writes to the server at `port`, on the items it holds, and more while
    /// `proxy` has cut fewer than `LiveListChaosTests.cutsPerPhase` connections (30 s at
    /// most), paced so that its cuts fall among them; the changes made.
    static func writes(port: Int, count: Int, seed: UInt64, proxy: CuttingProxy? = nil) throws -> Int {
        let c = try TabulaConnection(host: "127.0.0.1", port: port, timeout: 30)
        var ids = try c.request("LS /items LIMIT 1000").reply.rows.compactMap { Int($0.text.prefix { $0 != " " }) }
        var g = SplitMix64(seed: seed)
        var changed = 0, made = 0
        let cutsBefore = proxy?.cuts.load(ordering: .relaxed) ?? 0, deadline = Date().addingTimeInterval(30)
        func enoughCuts() -> Bool {
            proxy.map { $0.cuts.load(ordering: .relaxed) >= cutsBefore + LiveListChaosTests.cutsPerPhase } ?? true
        }
        while made < count || (!enoughCuts() && Date() < deadline) {
            made += 1
            let line = write(ids, &g)
            let r = try c.request(line)
            guard r.reply.rev != nil else { continue }
            changed += 1
            if line.hasPrefix("ADD"), let id = Int(r.reply.message.dropFirst(7).prefix { $0 != " " }) { ids.append(id) }
            if line.hasPrefix("RM") { ids.removeAll { "RM /items/\($0)" == line } }
            if proxy != nil { usleep(4_000) }  // about 200 writes a second, so that the cuts fall among them
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
        let phase = LiveListChaosTests.phaseWrites / 2
        var changes = try await LiveListChaosTests.offMain {
            try Self.writes(port: port, count: phase, seed: 1, proxy: proxy)
        }
        let old = server
        server = try await LiveListChaosTests.offMain {
            old.stop()
            return try LiveListChaosTests.startServer(port: port, sqlite: file)
        }
        defer { server.stop() }
        proxy.cutAll()
        changes += try await LiveListChaosTests.offMain {
            try Self.writes(port: port, count: phase, seed: 2, proxy: proxy)
        }
        proxy.cutting.store(false, ordering: .relaxed)
        let mismatched = try await Self.mismatched(list, port: port)
        let figures = "\(list.snapshots) snapshots, \(list.resumes) resumes, \(list.connections) connections"
        print(
            "LiveList favourites chaos (\(store)): \(changes) changes, \(proxy.cuts.load(ordering: .relaxed)) cuts; \(figures)"
        )
        #expect(mismatched.isEmpty, "the copy differs from LS under FILTER favorites: \(list.replica.rows); \(figures)")
        #expect(proxy.cuts.load(ordering: .relaxed) >= 2 * LiveListChaosTests.cutsPerPhase, "\(figures)")
        #expect(
            list.snapshots + list.resumes <= list.connections,
            "a snapshot taken again on a connection (each connection's watch is one snapshot or one resume): \(figures)"
        )
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
            try Self.writes(port: port, count: 300, seed: 60)
        }
        let mismatched = try await Self.mismatched(list, port: port)
        #expect(changes > 150, "\(changes) changes")
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

    /// A favourites list writes under its filter: `MV … 2` is the second place among the
    /// favourites, as the copy shows them (not the second of the whole section).
    @Test @MainActor func aFavouritesListsMoveCountsAmongTheFavouritesAsItsCopyShowsThem() async throws {
        let server = try await LiveListChaosTests.offMain { try LiveListChaosTests.startServer(sqlite: nil) }
        defer { server.stop() }
        let port = server.port
        try await LiveListChaosTests.offMain {
            let c = try TabulaConnection(host: "127.0.0.1", port: port, timeout: 30)
            for line in ["ADD /items Lamp 5", "ADD /items Vase 6", "FAV /items/5 on", "FAV /items/6 on"] {
                #expect(try c.request(line).isOK, "\(line)")
            }
        }
        let list = LiveList(path: "/items", endpoint: .tcp(host: "127.0.0.1", port: port), filter: .favorites)
        let task = Task { await list.run() }
        defer { task.cancel() }
        try await LiveListChaosTests.until("the favourites are 2, 5, 6: \(list.replica.entries.map(\.path))") {
            list.replica.entries.map(\.path) == ["/items/2", "/items/5", "/items/6"]
        }
        let reply = try await list.write("MV /items/6 2")
        #expect(reply.isOK, "\(reply.final)")
        try await LiveListChaosTests.until("6 is second among them: \(list.replica.entries.map(\.path))") {
            list.replica.entries.map(\.path) == ["/items/2", "/items/6", "/items/5"]
        }
    }
}
