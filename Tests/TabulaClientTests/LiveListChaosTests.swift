import Foundation
import Testing
import TabulaModel
import TabulaProtocol
import TabulaServer
import TabulaStorage

@testable import TabulaClient

/// `LiveList`s over a network that drops them: random writes to every list while a proxy
/// cuts the lists' connections every 50–500 ms, the server restarts once (a memory store: a
/// new history, so only a snapshot resumes) and keeps a history of 40 changes (so a long cut
/// resumes by snapshot too). Once writes and cuts stop, every list equals the server's `LS`.
@Suite(.serialized) struct LiveListChaosTests {
    static let lists = ["/items", "/orders", "/menu/pizza", "/catalog", "/catalog/item-1", "/settings"]

    static func startServer(port: Int = 0) throws -> Server {
        var config = ServerConfig()
        config.port = port
        config.historyInMemory = 40
        config.logLevel = .error
        let s = try Server(config: config, store: MemoryStore())
        s.start()
        return s
    }

    /// Every row `LS path` shows the server's JSON client now, as a replica's `rows` show them.
    static func listed(_ c: TabulaConnection, _ path: String) throws -> [JSONValue] {
        var out: [JSONValue] = []
        var after: String?
        repeat {
            let r = try c.request("LS \(path) LIMIT 500" + (after.map { " AFTER \($0)" } ?? ""))
            out += r.reply.rows.map { $0.json.resolved }.filter { $0["type"]?.stringValue != "empty" }
            after = r.reply.message.range(of: " AFTER ", options: .backwards).map { String(r.reply.message[$0.upperBound...]) }
        } while after != nil
        return out
    }

    /// `count` random writes to the server at `port`, on a connection of their own, paced.
    static func writes(port: Int, count: Int, seed: UInt64) throws -> Int {
        let c = try TabulaConnection(host: "127.0.0.1", port: port, timeout: 30)
        var g = SplitMix64(seed: seed)
        var changed = 0
        for _ in 0..<count {
            let line = ListReplicaGeneratedTests.write(revision: c.helloRevision + UInt64(changed), &g)
            if try c.request(line).reply.rev != nil { changed += 1 }
            usleep(4_000)  // a pace of about 200 writes a second, so that the cuts fall among them
        }
        return changed
    }

    @Test @MainActor func everyLiveListEqualsTheServersListAfterCutsARestartAndATrimmedHistory() async throws {
        var server = try Self.startServer()
        let proxy = try CuttingProxy(target: server.port)
        defer { proxy.stop() }
        let live = Self.lists.map { LiveList(path: $0, endpoint: .tcp(host: "127.0.0.1", port: proxy.port)) }
        let tasks = live.map { l in Task { await l.run() } }
        defer { for t in tasks { t.cancel() } }
        let first = server.port
        var changes = try await Task.detached { try Self.writes(port: first, count: 400, seed: 1) }.value
        // Every list holds the first server's history before it goes.
        let settled = Date().addingTimeInterval(30)
        while !live.allSatisfy({ if case .live = $0.state { true } else { false } }) && Date() < settled { try await Task.sleep(nanoseconds: 10_000_000) }
        let before = live.map(\.snapshots)
        #expect(before.allSatisfy { $0 >= 1 }, "every list began with a snapshot: \(before)")
        // A restart: the same port, a new memory store (a new history and the seed data again).
        let port = server.port
        server.stop()
        server = try Self.startServer(port: port)
        defer { server.stop() }
        proxy.cutAll()
        changes += try await Task.detached { try Self.writes(port: port, count: 400, seed: 2) }.value
        proxy.cutting.store(false, ordering: .relaxed)

        let check = try TabulaConnection(host: "127.0.0.1", port: port, timeout: 30)
        _ = try check.request("FORMAT json")
        let deadline = Date().addingTimeInterval(60)
        var mismatched = Self.lists
        while !mismatched.isEmpty && Date() < deadline {
            try await Task.sleep(nanoseconds: 20_000_000)
            let rev = try check.request("PING").reply  // a round trip: the revision below is current
            _ = rev
            mismatched = []
            for (i, l) in live.enumerated() {
                guard case .live = l.state, l.replica.rows == (try Self.listed(check, Self.lists[i])) else {
                    mismatched.append(Self.lists[i])
                    continue
                }
            }
        }
        let figures = "\(live.count) lists, \(changes) changes, \(proxy.cuts.load(ordering: .relaxed)) cuts, 1 restart, "
            + "\(live.map(\.connections).reduce(0, +)) connections, \(live.map(\.snapshots).reduce(0, +)) snapshots, \(live.map(\.resumes).reduce(0, +)) resumes"
        print("LiveList chaos:", figures, "mismatched:", mismatched)
        #expect(mismatched.isEmpty, "\(figures); lists that differ from LS: \(mismatched)")
        #expect(zip(live, before).allSatisfy { $0.snapshots > $1 }, "the restart's new history sent every list to a snapshot: \(figures); by list: \(live.map { "\($0.path) \($0.snapshots)/\($0.connections)" })")
    }
}
