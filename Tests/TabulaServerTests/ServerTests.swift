import Foundation
import Glibc
import Synchronization
import Testing
import TabulaClient
import TabulaServer
import TabulaStorage

@Suite struct ServerTests {
    @Test func greetsWithTheProtocolVersionAndRevision() throws {
        try withServer { s in
            let c = try connect(s)
            #expect(c.hello.hasPrefix("* HELLO tabula 3 rev=0 id="))
            #expect(c.hello.hasSuffix(" server=tabulad/\(ServerConfig.version)"))
            #expect(c.historyID.count == 16)
        }
    }

    @Test func twoHundredClientsAtOnceAreAllServed() throws {
        try withServer { s in
            let clients = try (0..<200).map { _ in try connect(s) }
            for (i, c) in clients.enumerated() { try c.line.send("#c\(i) LS /settings") }
            for (i, c) in clients.enumerated() {
                // A generous deadline: a lost reply still fails, a starved CI machine does not.
                let r = try c.readReply(timeout: 30)
                #expect(r.final == "OK #c\(i) 2 of 2")
                #expect(r.data.count == 2)
            }
            #expect(try stat(clients[0], "connections") == 200)
        }
    }

    @Test(arguments: ["memory", "sqlite"])
    func pipelinedRequestsAreAnsweredInOrderWithTheirTags(store kind: String) throws {
        try withServer(store: try makeStore(kind)) { s in
            let c = try connect(s)
            let kinds = [
                "PING", "SHOW /items/1", "NOPE", "FAV /items/1", "LS /orders LIMIT 1", "ORDER pesto", "CD /items",
                "SHOW 1",
            ]
            var batch = ""
            for i in 0..<480 { batch += "#p\(i) \(kinds[i % kinds.count])\n" }
            try c.line.sendRaw(Array(batch.utf8))
            for i in 0..<480 {
                let r = try c.readReply()
                #expect(r.final.hasPrefix(i % kinds.count == 2 ? "ERR #p\(i) UNKNOWN" : "OK #p\(i)"), "\(r.final)")
            }
            #expect(try stat(c, "revision") == 120)
        }
    }

    @Test(arguments: ["memory", "sqlite"])
    func watchersOnDifferentPrefixesGetExactlyTheirEventsInRevisionOrderUnderConcurrentWriters(store kind: String)
        throws
    {
        try withServer(store: try makeStore(kind)) { s in
            let prefixes = ["/settings", "/items", "/orders"]
            let watchers = try prefixes.map { p -> TabulaConnection in
                let w = try connect(s)
                #expect(try w.request("WATCH \(p)").isOK)
                return w
            }
            let perWriter = 30
            let group = DispatchGroup()
            let port = s.port
            let failures = Atomic<Int>(0)
            for wi in 0..<10 {
                group.enter()
                Thread {
                    defer { group.leave() }
                    guard let c = try? TabulaConnection(host: "127.0.0.1", port: port, timeout: 30) else {
                        failures.wrappingAdd(1, ordering: .relaxed)
                        return
                    }
                    for k in 0..<perWriter {
                        let line: String
                        switch (wi + k) % 3 {
                        case 0: line = "SET /settings/my-int title=W\(wi)K\(k)"  // always a change
                        case 1: line = "ADD /items w\(wi)k\(k) \(k)"
                        default: line = "ORDER pesto"
                        }
                        if (try? c.request(line))?.isOK != true { failures.wrappingAdd(1, ordering: .relaxed) }
                    }
                }.start()
            }
            group.wait()
            #expect(failures.load(ordering: .relaxed) == 0, "a writer's request failed")
            let total = 10 * perWriter
            var all: [UInt64] = []
            for (i, w) in watchers.enumerated() {
                var got: [String] = []
                let c = try connect(s)
                let rev = try stat(c, "revision")
                #expect(rev == total)
                _ = try w.request("PING")  // every event published before this reply is queued before it
                // Each watcher now has every event for its prefix: all were published before the
                // PING's reply, so they were read (and queued) before it.
                got = w.takePushes()
                #expect(got.allSatisfy { $0.split(separator: " ")[4].hasPrefix(prefixes[i]) })
                let revs = got.compactMap { TabulaConnection.revision(of: $0) }
                #expect(revs == revs.sorted())
                #expect(Set(revs).count == revs.count)
                all += revs
            }
            #expect(all.sorted() == Array(1...UInt64(total)))
        }
    }

    @Test func watchFromAfterADisconnectResumesWithNoGapAndNoDuplicate() throws {
        try withServer { s in
            let writer = try connect(s)
            var w = try connect(s)
            #expect(try w.request("WATCH /items").isOK)
            for i in 0..<5 { _ = try writer.request("ADD /items a\(i) 1") }
            var seen: [UInt64] = []
            while seen.count < 5, let p = try w.waitPush(timeout: 5, where: { _ in true }) {
                seen.append(TabulaConnection.revision(of: p) ?? 0)
            }
            let last = w.lastRevision
            w = try connect(s)  // the old connection is dropped
            for i in 0..<5 { _ = try writer.request("ADD /items b\(i) 1") }
            let r = try w.request("WATCH /items FROM \(last)")
            #expect(r.final.hasSuffix("replaying 5 events"))
            for i in 0..<3 { _ = try writer.request("ADD /items c\(i) 1") }
            while seen.count < 13, let p = try w.waitPush(timeout: 5, where: { !$0.hasPrefix("* SYNCED") }) {
                seen.append(TabulaConnection.revision(of: p) ?? 0)
            }
            #expect(seen == Array(1...13))
            // Nothing more: every event published before the PING's reply is queued before it.
            _ = try w.request("PING")
            #expect(w.takePushes() == ["* SYNCED 10"], "the replay's end is marked, and nothing else is left")
        }
    }

    @Test func watchFromARevisionOlderThanTheHistoryNamesTheOldestHeld() throws {
        try withServer({ $0.historyInMemory = 3 }) { s in
            let c = try connect(s)
            for _ in 0..<6 { _ = try c.request("ORDER pesto") }
            let r = try c.request("WATCH /orders FROM 1")
            #expect(
                r.final.hasPrefix(
                    "ERR EXPIRED revision 1 is older than the history kept; the oldest revision held is 4"))
            #expect(try c.request("WATCH /orders FROM 3").final == "OK watching /orders at rev 6; replaying 3 events")
        }
    }

    @Test(arguments: ["memory", "sqlite"])
    func aWatcherSeesItsOwnChangeJustBeforeTheOK(store kind: String) throws {
        try withServer(store: try makeStore(kind)) { s in
            let c = try connect(s)
            _ = try c.request("WATCH /settings")
            try c.line.send("SELECT /settings/my-int 64")
            #expect(try c.line.readLine(timeout: 5) == "* EVENT 1 select /settings/my-int My Int: 64")
            #expect(try c.line.readLine(timeout: 5) == "- my-int/  My Int: 64")
            #expect(try c.line.readLine(timeout: 5) == "OK My Int: 64 rev=1")
        }
    }

    @Test(arguments: ["memory", "sqlite"])
    func onceAWriterHasItsOKEveryWatcherHasTheEventQueued(store kind: String) throws {
        try withServer(store: try makeStore(kind)) { s in
            let watchers = try (0..<6).map { _ in try connect(s) }
            for w in watchers { _ = try w.request("WATCH /orders") }
            let writer = try connect(s)
            for round in 1...30 {
                _ = try writer.request("ORDER pesto")
                for w in watchers {
                    _ = try w.request("PING")
                    #expect(w.takePushes().count == 1, "round \(round)")
                }
            }
        }
    }

    @Test func watchingBothAPrefixAndItsParentDeliversEachEventOnce() throws {
        try withServer { s in
            let c = try connect(s)
            _ = try c.request("WATCH /")
            _ = try c.request("WATCH /items")
            _ = try c.request("FAV /items/1")
            _ = try c.request("PING")
            #expect(c.takePushes().count == 1)
        }
    }

    @Test func jsonConnectionsGetJSONEvents() throws {
        try withServer { s in
            let c = try connect(s)
            _ = try c.request("FORMAT json")
            _ = try c.request("WATCH /orders")
            _ = try c.request("ORDER margherita")
            let p = try c.waitPush(timeout: 5) { _ in true }
            #expect(p?.hasPrefix(#"{"push":"event","rev":1,"kind":"order","path":"/orders/1""#) == true)
        }
    }

    @Test func unwatchStopsEvents() throws {
        try withServer { s in
            let c = try connect(s)
            _ = try c.request("WATCH /items")
            #expect(try c.request("UNWATCH /items").final == "OK 1 removed")
            _ = try c.request("FAV /items/1")
            _ = try c.request("PING")
            #expect(c.takePushes().isEmpty)
            #expect(try c.request("UNWATCH /menu").final.hasPrefix("ERR NOTFOUND"))
        }
    }

    @Test func sessionsHaveTheirOwnPathAndFilter() throws {
        try withServer { s in
            let a = try connect(s), b = try connect(s)
            _ = try a.request("CD /items")
            #expect(try a.request("PWD").final == "OK /items")
            #expect(try b.request("PWD").final == "OK /")
            _ = try a.request("FILTER favorites")
            #expect(try a.request("LS").data.count == 4)
            #expect(try b.request("LS /items").data.count == 6)
        }
    }
}

/// The per-loop reply cache must never show a state other than the current one.
@Suite struct ReplyCacheTests {
    @Test func aRepeatedReadSeesAChangeMadeByAnotherClientAtOnce() throws {
        try withServer { s in
            let a = try connect(s), b = try connect(s)
            for _ in 0..<3 { #expect(try a.request("SHOW /settings/my-int").data.contains("selected: 16 (#2)")) }
            _ = try b.request("SELECT /settings/my-int 64")
            #expect(try a.request("SHOW /settings/my-int").data.contains("selected: 64 (#4)"))
        }
    }

    @Test func theSameRequestFromDifferentViewsGetsEachItsOwnReply() throws {
        try withServer({ $0.ioThreads = 1 }) { s in
            let a = try connect(s), b = try connect(s)
            _ = try a.request("FILTER favorites")
            #expect(try a.request("LS /items").data.count == 4)
            #expect(try b.request("LS /items").data.count == 6)
            _ = try a.request("FORMAT json")
            #expect(try a.request("LS /items").final.hasPrefix("{\"ok\":true"))
            _ = try b.request("CD /items")
            #expect(try b.request("LS").data.count == 6)
            #expect(try b.request("LS /menu").data.count == 3)
        }
    }

    @Test func aReadAfterOwnWriteOnTheDurableStoreSeesTheWrite() throws {
        try withServer(store: try SQLiteStore(path: tempDB(), syncFull: false)) { s in
            let a = try connect(s)
            #expect(try a.request("SHOW /items/1").data.contains("favorite: no"))
            _ = try a.request("FAV /items/1")
            #expect(try a.request("SHOW /items/1").data.contains("favorite: yes ★"))
        }
    }
}
