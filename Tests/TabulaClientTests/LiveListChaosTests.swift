import Foundation
import Testing
import TabulaModel
import TabulaProtocol
import TabulaServer
import TabulaStorage

import TabulaTestSupport

@testable import TabulaClient

/// `LiveList`s over a network that drops them: random writes to every list while a proxy
/// cuts the lists' connections every 50–500 ms, and the server restarts once. On a memory
/// store the restart is a new history (only a snapshot resumes) and 40 changes are kept (a
/// long cut resumes by snapshot too); on SQLite the history survives the restart, read back
/// from the file, and every list resumes by replay. Once writes and cuts stop, every list
/// equals the server's `LS`.
@Suite(.serialized) struct LiveListChaosTests {
    static let lists = ["/items", "/orders", "/menu/pizza", "/catalog", "/catalog/item-1", "/settings"]

    static func startServer(port: Int = 0, sqlite: String?) throws -> Server {
        var config = ServerConfig()
        config.port = port
        config.historyInMemory = 40
        config.logLevel = .error
        let store: StateStore = try sqlite.map { try SQLiteStore(path: $0, syncFull: false) } ?? MemoryStore()
        let s = try Server(config: config, store: store)
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
            after = r.reply.message.range(of: " AFTER ", options: .backwards).map {
                String(r.reply.message[$0.upperBound...])
            }
        } while after != nil
        return out
    }

    /// Every row of each of `paths` that `LS` shows on the server at `port`, read on a thread
    /// of its own: the lists live on the main actor, which a blocking read would stop (and
    /// other suites' lists with it).
    /// `login`: a line sent first (an AUTH: the rows are that user's; a FILTER: in its view).
    static func listed(port: Int, _ paths: [String], login: String? = nil) async throws -> [[JSONValue]] {
        try await offMain {
            let c = try TabulaConnection(host: "127.0.0.1", port: port, timeout: 30)
            if let login { _ = try c.request(login) }
            _ = try c.request("FORMAT json")
            return try paths.map { try listed(c, $0) }
        }
    }

    /// Waits (up to `seconds`) until every list is live and equals `LS` of its path on the
    /// server at `port` (as `login` when given): the paths of those that do not, and the rows
    /// last listed.
    @MainActor static func mismatched(_ live: [LiveList], port: Int, login: String? = nil, seconds: Double)
        async throws -> (paths: [String], listed: [[JSONValue]])
    {
        let deadline = Date().addingTimeInterval(seconds)
        var mismatched = live.map(\.path), listed: [[JSONValue]] = []
        while !mismatched.isEmpty && Date() < deadline {
            try await Task.sleep(nanoseconds: 20_000_000)
            listed = try await Self.listed(port: port, live.map(\.path), login: login)
            mismatched = zip(live, listed).filter { l, rows in
                guard case .live = l.state else { return true }
                return l.replica.rows != rows
            }.map(\.0.path)
        }
        return (mismatched, listed)
    }

    /// Runs `work` on a thread of its own, so that the main actor, where the lists live,
    /// goes on while it blocks. Not a task: the other suites' tests block the threads of the
    /// tasks' pool (one a core), and a task would wait behind them.
    static func offMain<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { k in
            Thread.detachNewThread { k.resume(with: Result { try work() }) }
        }
    }

    /// Writes in each phase: 400, or `TABULA_CHAOS_WRITES` (`Scripts/bench --soak`'s long form).
    static let phaseWrites = Int(ProcessInfo.processInfo.environment["TABULA_CHAOS_WRITES"] ?? "") ?? 400

    /// Cuts each phase of writes lasts for at least (a loaded machine may pace the cutting
    /// thread slower than the writes: the phase then writes on until they have come).
    static let cutsPerPhase = 4

    /// `count` random writes to the server at `port`, on a connection of their own, paced,
    /// and more while `proxy` has cut fewer than `cutsPerPhase` connections since the start
    /// (30 s at most).
    static func writes(port: Int, count: Int, seed: UInt64, proxy: CuttingProxy? = nil) throws -> Int {
        let c = try TabulaConnection(host: "127.0.0.1", port: port, timeout: 30)
        var g = SplitMix64(seed: seed)
        var changed = 0, made = 0
        let cutsBefore = proxy?.cuts.load(ordering: .relaxed) ?? 0, deadline = Date().addingTimeInterval(30)
        func enoughCuts() -> Bool {
            proxy.map { $0.cuts.load(ordering: .relaxed) >= cutsBefore + cutsPerPhase } ?? true
        }
        while made < count || (!enoughCuts() && Date() < deadline) {
            made += 1
            let line = ListReplicaGeneratedTests.write(revision: c.helloRevision + UInt64(changed), &g)
            if try c.request(line).reply.rev != nil { changed += 1 }
            usleep(4_000)  // a pace of about 200 writes a second, so that the cuts fall among them
        }
        return changed
    }

    @Test @MainActor func aListCutOffResumesByReplayingWhatItMissed() async throws {
        let server = try await Self.offMain { try Self.startServer(sqlite: nil) }
        defer { server.stop() }
        let proxy = try CuttingProxy(target: server.port)
        defer { proxy.stop() }
        proxy.cutting.store(false, ordering: .relaxed)
        let port = server.port
        _ = try await Self.offMain {
            try TabulaConnection(host: "127.0.0.1", port: port, timeout: 30).request("ORDER margherita").isOK
        }
        let list = LiveList(path: "/orders", endpoint: .tcp(host: "127.0.0.1", port: proxy.port))
        let task = Task { await list.run() }
        defer { task.cancel() }
        try await Self.until("the list is live, not \(list.state)") {
            if case .live = list.state { true } else { false }
        }
        proxy.cutAll()
        try await Self.offMain {
            let c = try TabulaConnection(host: "127.0.0.1", port: port, timeout: 30)
            for _ in 0..<3 { _ = try c.request("ORDER pesto") }
        }
        try await Self.until("the list is live at rev 4, not \(list.state)") { list.state == .live(rev: 4) }
        #expect(
            list.snapshots == 1 && list.resumes == 1 && list.connections == 2,
            "\(list.snapshots) snapshots, \(list.resumes) resumes, \(list.connections) connections")
        #expect(list.replica.entries.map(\.path) == ["/orders/1", "/orders/2", "/orders/3", "/orders/4"])
    }

    /// Waits (up to 30 s, looking every 5 ms) until `condition` holds; else fails, saying
    /// what was awaited and what was seen instead.
    static func until(_ awaited: @autoclosure @MainActor () -> String, _ condition: @MainActor () -> Bool) async throws
    {
        let deadline = Date().addingTimeInterval(30)
        while await !condition() {
            guard Date() < deadline else {
                Issue.record("waited 30 s for this: \(await awaited())")
                throw CancellationError()
            }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
    }

    @Test(arguments: ["memory", "sqlite"]) @MainActor
    func everyLiveListEqualsTheServersListAfterCutsAndARestart(store: String) async throws {
        let file = store == "sqlite" ? NSTemporaryDirectory() + "tabula-livelist-\(UUID().uuidString).sqlite" : nil
        defer { if let file { for suffix in ["", "-wal", "-shm"] { unlink(file + suffix) } } }
        var server = try await Self.offMain { try Self.startServer(sqlite: file) }
        let proxy = try CuttingProxy(target: server.port)
        defer { proxy.stop() }
        let live = Self.lists.map { LiveList(path: $0, endpoint: .tcp(host: "127.0.0.1", port: proxy.port)) }
        let tasks = live.map { l in Task { await l.run() } }
        defer { for t in tasks { t.cancel() } }
        let first = server.port
        var changes = try await Self.offMain {
            try Self.writes(port: first, count: Self.phaseWrites, seed: 1, proxy: proxy)
        }
        // Every list holds the first server's history before it goes.
        let settled = Date().addingTimeInterval(30)
        while !live.allSatisfy({ if case .live = $0.state { true } else { false } }) && Date() < settled {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        let before = live.map(\.snapshots)
        #expect(before.allSatisfy { $0 >= 1 }, "every list began with a snapshot: \(before)")
        // A restart: the same port, a new memory store (a new history and the seed data again).
        let port = server.port, old = server
        server = try await Self.offMain {
            old.stop()
            return try Self.startServer(port: port, sqlite: file)
        }
        defer { server.stop() }
        proxy.cutAll()
        changes += try await Self.offMain {
            try Self.writes(port: port, count: Self.phaseWrites, seed: 2, proxy: proxy)
        }
        proxy.cutting.store(false, ordering: .relaxed)

        let (mismatched, listed) = try await Self.mismatched(live, port: port, seconds: 60)
        let figures =
            "\(live.count) lists, \(changes) changes, \(proxy.cuts.load(ordering: .relaxed)) cuts, 1 restart, "
            + "\(live.map(\.connections).reduce(0, +)) connections, \(live.map(\.snapshots).reduce(0, +)) snapshots, \(live.map(\.resumes).reduce(0, +)) resumes"
        print("LiveList chaos (\(store)):", figures, "mismatched:", mismatched)
        #expect(proxy.cuts.load(ordering: .relaxed) >= 2 * Self.cutsPerPhase, "the writes were cut among: \(figures)")
        let diff =
            mismatched.first.map { p -> String in
                let i = Self.lists.firstIndex(of: p)!, l = live[i]
                return
                    "\(p) (\(l.state), rev \(l.replica.rev)):\n  replica \(l.replica.rows)\n  LS      \(listed.count > i ? listed[i] : [])"
            } ?? ""
        #expect(mismatched.isEmpty, "\(figures); lists that differ from LS: \(mismatched)\n\(diff)")
        let byList = live.map {
            "\($0.path) \($0.snapshots) snapshots, \($0.resumes) resumes, \($0.connections) connections"
        }
        #expect(
            zip(live, before).allSatisfy { $0.snapshots > $1 },
            "the restart sent every list to a snapshot (a new history; or on SQLite, revisions that read anew): \(figures); \(byList)"
        )
    }
}
