import Foundation
import Synchronization
import Testing
import TabulaAccess
import TabulaClient
import TabulaModel
import TabulaProtocol
import TabulaStorage

@testable import TabulaServer

/// One road for every request: the Verb table classifies, the dispatcher routes, the loop
/// owns the session, and the engine takes changes from outside too.
@Suite struct PipelineTests {
    static func unit(_ line: String) -> LineUnit {
        guard case .success(let r)? = RequestParser.parse(Array(line.utf8)) else { fatalError(line) }
        return .request(r)
    }

    static func route(_ line: String, durable: Bool) -> Dispatcher.Route {
        RoutedUnit(unit(line), durable: durable, stats: ServerStats()).route
    }

    @Test func writesGoToTheEngineOnlyWhenTheStoreIsDurableExceptThoseRunOnACopy() {
        for line in ["SELECT /settings/my-int 8", "ADD /menu X", "ORDER pesto"] {
            #expect(Self.route(line, durable: true) == .engine, "\(line)")
            #expect(Self.route(line, durable: false) != .engine, "\(line)")
        }
        #expect(Self.route("BANDS A 5 B", durable: false) == .engine)
        #expect(Self.route("BANDS A 5 B", durable: true) == .engine)
        // A replay reads the stored history on the loop, through a reader of its own.
        for line in [
            "LS", "SHOW /items/1", "BANDS", "CD /items", "WATCH /items", "WATCH / FROM 0", "PING", "FORMAT json",
            "STATS", "COMPLETE L",
        ] {
            #expect(Self.route(line, durable: true) != .engine, "\(line)")
        }
        #expect(
            RoutedUnit(.failure(tag: nil, TabulaError(.syntax, "x")), durable: true, stats: ServerStats()).route
                == .loop(.connection))
    }

    @Test func theVerbTableGivesEveryVerbItsAccessCacheabilityAndPermission() {
        for v in Verb.allCases {
            let t = v.traits()
            if t.cacheable { #expect(t.access == .read, "\(v)") }
            if t.access == .write { #expect(t.permission >= .write, "\(v)") }
            if t.permission == .none { #expect([Verb.ping, .help, .quit, .auth].contains(v), "\(v)") }
        }
        #expect(Verb.bands.traits(hasArguments: false).access == .read)
        #expect(Verb.bands.traits(hasArguments: true) == VerbTraits(.write, permission: .admin))
        #expect(ServerTraits.of(.bands, hasArguments: true).onCopy && !ServerTraits.of(.bands).onCopy)
        func verbs(_ has: (ServerTraits) -> Bool) -> Set<Verb> {
            Set(Verb.allCases.filter { has(ServerTraits.of($0)) })
        }
        #expect(verbs { $0.runner == .authenticator } == [.auth])
        #expect(verbs { $0.runner == .engine } == [.sync])
        #expect(verbs(\.readsPublished) == [.watch, .stats])
        #expect(Command.bands([]).isWrite == false && Command.bands(["A"]).isWrite)
    }

    @Test func cachedRepliesAreKeyedByWhoAsks() {
        var a = Session(), b = Session(), reloaded = Session()
        a.become(AuthUser(name: "ci", role: .read, grants: Grants(), generation: 1))
        b.become(AuthUser(name: "ops", role: .read, grants: Grants(), generation: 1))
        reloaded.become(AuthUser(name: "ci", role: .read, grants: Grants(), generation: 2))
        guard case .success(let ls)? = RequestParser.parse(Array("LS /".utf8)) else { return #expect(Bool(false)) }
        #expect(ReplyCache.key(ls, a) != ReplyCache.key(ls, b))
        #expect(ReplyCache.key(ls, a).hashValue != ReplyCache.key(ls, b).hashValue, "who asks is part of the hash too")
        #expect(ReplyCache.key(ls, a) != ReplyCache.key(ls, reloaded), "a reload makes old answers unusable")
    }

    @Test func theSameReadTypedAnotherWayIsAnotherKeyAndTheSameLineIsTheSameKey() {
        func key(_ line: String) -> ReplyCache.Key? {
            guard case .success(let r)? = RequestParser.parse(Array(line.utf8)) else { return nil }
            return ReplyCache.key(r, Session())
        }
        #expect(key("SHOW /items/1") == key("SHOW /items/1"))
        #expect(key("SHOW /items/1")?.hashValue == key("SHOW /items/1")?.hashValue)
        #expect(key("SHOW /items/1") != key("show /items/1"), "another line: cached apart, never confused")
        #expect(key("SHOW /items/1") != key("SHOW /items/2"))
        #expect(
            key("SHOW /items/1") != ReplyCache.key(Request(command: .show(path: "/items/1")), Session()),
            "built from words: hashed by its command")
    }

    @Test func requestsSentWhileAGroupIsAtTheEngineRunAfterItWithTheSessionItLeft() throws {
        try withServer(store: try makeStore("sqlite")) { s in
            let c = try connect(s)
            // A durable write sends the rest of the line batch to the engine with it; what
            // follows in later writes is held on the loop until that group is answered.
            try c.line.send("ADD /menu Drinks\nCD /menu/drinks\nFORMAT json")
            try c.line.send("PWD\nADD /menu/drinks Cola\nLS")
            let replies = try (0..<6).map { _ in try c.readReply() }
            #expect(replies.allSatisfy { $0.isOK }, "\(replies.map(\.final))")
            #expect(replies[3].reply.message == "/menu/drinks")
            #expect(replies[5].reply.rows.first?.json["name"] == .string("cola"))
            #expect(try c.request("PWD").final.hasPrefix("{\"ok\":true"))
        }
    }

    /// The route is decided once per request, as it is decoded: not again where the loop
    /// looks for its run's end, hands the rest on, or the engine runs the group.
    @Test(arguments: ["memory", "sqlite"])
    func eachRequestIsRoutedOnceWhereverItRuns(store: String) throws {
        #if DEBUG
            try withServer(store: try makeStore(store)) { s in
                let c = try connect(s)
                let stats = s.loops[0].stats
                _ = try c.request("PING")
                let before = stats.routesDecided.load(ordering: .relaxed)
                // Reads, durable writes (the engine, with what follows them), a session change,
                // a login (the authenticator) and a bad line, pipelined in one write.
                var lines: [String] = []
                for i in 0..<300 {
                    let kinds = ["SHOW /items/1", "FAV /items/\(1 + i % 5)", "CD /menu", "AUTH nobody x", "NOPE", "LS"]
                    lines.append(kinds[i % kinds.count])
                }
                try c.line.send(lines.joined(separator: "\n"))
                for _ in lines { _ = try c.readReply() }
                _ = try c.request("PING")  // every reply read: the counter holds all 300 and this
                #expect(stats.routesDecided.load(ordering: .relaxed) - before == lines.count + 1)
            }
        #endif
    }

    @Test func aPipelinedFloodIsRunInBoundedSlicesAndStillAnsweredInOrder() throws {
        try withServer { s in
            let c = try connect(s)
            // More than RequestExecutor.unitsPerLock in one read, mixed with writes (run on the
            // loop with the memory store) and a session change in the middle.
            var lines: [String] = []
            for i in 0..<1_000 {
                lines.append(i == 500 ? "#t\(i) CD /orders" : i % 7 == 0 ? "#t\(i) ORDER pesto" : "#t\(i) PWD")
            }
            try c.line.send(lines.joined(separator: "\n"))
            for i in 0..<1_000 {
                let r = try c.readReply()
                #expect(r.reply.tag == "t\(i)" && r.isOK, "\(i): \(r.final)")
                if i % 7 != 0 && i != 500 { #expect(r.reply.message == (i < 500 ? "/" : "/orders"), "\(i)") }
            }
            #expect(try stat(c, "revision") == 143)
        }
    }
}

extension PipelineTests {
    /// Under a stream of durable writes, a WATCH often reaches the engine while writes of
    /// other connections in the same turn have made events: it gets exactly the events after
    /// its reply's revision, from the next one on.
    @Test func aWatchSentDuringWritesGetsExactlyTheEventsAfterItsReply() throws {
        try withServer(store: try SQLiteStore(path: tempDB(), syncFull: false)) { s in
            let port = s.port
            let stop = Atomic<Bool>(false)
            let group = DispatchGroup()
            for _ in 0..<3 {
                group.enter()
                Thread {
                    defer { group.leave() }
                    guard let w = try? TabulaConnection(host: "127.0.0.1", port: port, timeout: 30) else { return }
                    while !stop.load(ordering: .relaxed) { _ = try? w.request("ORDER pesto") }
                }.start()
            }
            defer {
                stop.store(true, ordering: .relaxed)
                group.wait()
            }
            for _ in 0..<40 {
                let c = try connect(s)
                try c.line.send("WATCH /orders")
                var before: [String] = []
                var ack: UInt64 = 0
                while true {
                    let l = try #require(try c.line.readLine(timeout: 10))
                    if let a = WatchAck(message: String(l.dropFirst(3))), l.hasPrefix("OK ") {
                        ack = a.rev
                        break
                    }
                    before.append(l)
                }
                // Events after the reply's revision may come just before the reply line (they
                // are queued as they are published), but none at or before it, and none missed.
                var revs = before.compactMap { TabulaConnection.revision(of: $0) }
                while revs.count < before.count + 3, let l = try c.line.readLine(timeout: 10),
                    let r = TabulaConnection.revision(of: l)
                { revs.append(r) }
                #expect(
                    revs.first == ack + 1 && revs == Array(revs.indices).map { ack + 1 + UInt64($0) },
                    "after 'at rev \(ack)': \(revs)")
            }
            // With FROM: the reply, the replayed events, then the live ones, in one unbroken run.
            for _ in 0..<20 {
                let c = try connect(s)
                let from = max(1, c.helloRevision) - 1
                try c.line.send("WATCH /orders FROM \(from)")
                var lines: [String] = []
                while lines.count < 200, let l = try c.line.readLine(timeout: 10) {
                    lines.append(l)
                    if lines.count > 1 && TabulaConnection.revision(of: l).map({ $0 > c.helloRevision + 3 }) == true {
                        break
                    }
                }
                let ackAt = lines.firstIndex { $0.hasPrefix("OK watching") }
                #expect(ackAt == 0, "the reply is the first line: \(lines.prefix(2))")
                let revs = lines.dropFirst().compactMap { TabulaConnection.revision(of: $0) }
                #expect(revs == Array(revs.indices).map { from + 1 + UInt64($0) }, "FROM \(from): \(revs.prefix(8))")
            }
        }
    }
}
