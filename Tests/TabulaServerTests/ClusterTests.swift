import Foundation
import Testing
import TabulaClient
import Synchronization
import TabulaServer
import TabulaTestSupport

@Suite(
    "Nodes of a cluster on one PostgreSQL",
    .enabled(if: testPostgres != nil, "needs TABULA_TEST_POSTGRES (Scripts/test starts a private PostgreSQL)"))
struct ClusterTests {
    @Test("a write on one node reaches a watcher on another, with the revision its OK named")
    func writesReachOtherNodes() throws {
        try withCluster { nodes, _ in
            let watcher = try connect(nodes[1])
            #expect(try watcher.request("WATCH /orders").isOK)
            let ok = try connect(nodes[0]).request("ORDER pesto").final
            let rev = try #require(revision(of: ok))
            #expect(ok.hasPrefix("OK order 1: Pesto"))
            let event = try watcher.waitPush(timeout: 5) { $0.hasPrefix("* EVENT") }
            #expect(event?.hasPrefix("* EVENT \(rev) order /orders/1 ") == true)
        }
    }

    @Test(
        "a watcher on another node is told where the entry stands and stood, from the shared history, live and replayed"
    )
    func eventsCarryTheirPlacesAcrossNodes() throws {
        try withCluster { nodes, _ in
            let watcher = try connect(nodes[1])
            _ = try watcher.request("FORMAT json")
            #expect(try watcher.request("WATCH /items").isOK)
            let rev = try #require(revision(of: try connect(nodes[0]).request("SET /items/1 value=70").final))
            let live = try #require(try watcher.waitPush(timeout: 5) { $0.contains(#""push":"event""#) })
            let placed =
                #""at":{"section":"expensive-items","position":3},"from":{"section":"cheap-items","position":1}"#
            #expect(live.contains(placed), "\(live)")
            #expect(live.contains(#""prev":{"type":"item","id":1"#))
            let late = try connect(nodes[1])
            _ = try late.request("FORMAT json")
            #expect(try late.request("WATCH /items FROM \(rev - 1)").isOK)
            let replayed = try #require(try late.waitPush(timeout: 5) { $0.contains(#""push":"event""#) })
            #expect(replayed.contains(placed), "\(replayed)")
        }
    }

    @Test("SYNC lets a write on node A be read on node B at once")
    func syncReadsYourWrites() throws {
        try withCluster { nodes, _ in
            let a = try connect(nodes[0])
            let b = try connect(nodes[1])
            for value in [8, 16, 32, 64] {
                let rev = try #require(revision(of: try a.request("SELECT /settings/my-int \(value)").final))
                #expect(try b.request("SYNC \(rev)").final == "OK synced rev=\(rev)")
                #expect(
                    try b.request("SHOW /settings/my-int").data.contains(
                        "selected: \(value) (#\([8, 16, 32, 64].firstIndex(of: value)! + 1))"))
            }
        }
    }

    @Test("an entry's revision is the same on every node, and IF REV on one node sees a change made on another")
    func conditionsHoldAcrossNodes() throws {
        try withCluster { nodes, _ in
            let a = try connect(nodes[0])
            let b = try connect(nodes[1])
            let before = try #require(revision(of: try b.request("SELECT /settings/my-string #2").final))
            _ = try a.request("SYNC \(before)")
            let rev = try #require(revision(of: try a.request("SET /items/4 value=70 IF REV \(before)").final))
            #expect(try b.request("SYNC \(rev)").isOK)
            #expect(
                try b.request("SHOW /items/4").data.last == "rev: \(rev)", "the follower stamped the leader's change")
            #expect(try a.request("SHOW /items/4").data.last == "rev: \(rev)")
            let stale = try b.request("SET /items/4 value=90 IF REV \(before)")
            #expect(
                stale.final.hasPrefix("ERR CONFLICT /items/4 changed at rev \(rev), after rev \(before)"),
                "\(stale.final)")
            #expect(try b.request("SET /items/4 value=90 IF REV \(rev)").isOK)
        }
    }

    @Test("SYNC to a revision that never comes answers ERR TIMEOUT after its timeout, and the connection goes on")
    func syncTimesOut() throws {
        try withCluster(nodes: 1) { nodes, _ in
            let c = try connect(nodes[0])
            let start = Date()
            let r = try c.request("SYNC 1000 TIMEOUT 300")
            #expect(r.final.hasPrefix("ERR TIMEOUT this node has applied revision 0, not yet 1000"))
            #expect(Date().timeIntervalSince(start) >= 0.3)
            #expect(try c.request("PING").final == "OK PONG")
            #expect(
                try c.request("WATCH /orders FROM 1000").final
                    == "ERR EXPIRED revision 1000 is ahead of this node, which has applied 0; SYNC 1000 first (it waits for this node to catch up), then WATCH /orders FROM 1000"
            )
        }
    }

    @Test("writes on two nodes at once get one order of revisions and the same lists on both")
    func concurrentWritersAgree() throws {
        try withCluster { nodes, _ in
            let group = DispatchGroup()
            let failures = Mutex(0)
            for node in nodes {
                DispatchQueue.global().async(group: group) {  // enters the group, and leaves it when done
                    guard let c = try? connect(node) else { return failures.withLock { $0 += 1 } }
                    for _ in 0..<50 where (try? c.request("ORDER gelato").isOK) != true {
                        failures.withLock { $0 += 1 }
                    }
                }
            }
            #expect(group.wait(timeout: .now() + 60) == .success, "the writers did not finish within 60 s")
            #expect(failures.withLock { $0 } == 0)
            let lists = try nodes.map { n -> [String] in
                let c = try connect(n)
                #expect(try c.request("SYNC 100").isOK)
                return try c.request("LS /orders LIMIT 200").data
            }
            #expect(lists[0].count == 100)
            #expect(lists[0] == lists[1])
        }
    }

    @Test("WATCH … FROM replays the cluster's change table on any node, and names the oldest revision it holds")
    func replaysFromTheChangeTable() throws {
        try withCluster(history: 3, inMemory: 1) { nodes, _ in  // the replay must read PostgreSQL
            let a = try connect(nodes[0]), b = try connect(nodes[1])
            for rev in 1...6 {  // B follows each change before the history (3) lets it go
                #expect(try a.request("ORDER pesto").isOK)
                #expect(try b.request("SYNC \(rev)").isOK)
            }
            #expect(
                try b.request("WATCH /orders FROM 1").final.hasPrefix(
                    "ERR EXPIRED revision 1 is older than the history kept; the oldest revision held is 4"))
            #expect(try b.request("WATCH /orders FROM 3").final == "OK watching /orders at rev 6; replaying 3 events")
            for rev in 4...6 { #expect(try b.waitPush(timeout: 5) { $0.hasPrefix("* EVENT \(rev) ") } != nil) }
        }
    }

    @Test(
        "a store whose head goes behind a node (a restore) makes it drop its clients with a BYE, never serve both histories"
    )
    func rewoundHistoryDropsClients() throws {
        try withCluster(nodes: 1) { nodes, db in
            let c = try connect(nodes[0])
            #expect(try c.request("WATCH /").isOK)
            #expect(try c.request("ORDER pesto").isOK)
            try psql(
                db,
                "UPDATE tabula_head SET rev = 0; UPDATE tabula_durable SET rev = 0; DELETE FROM tabula_changes; DELETE FROM orders"
            )  // as a restore of an older backup
            let bye = try c.waitPush(timeout: 5) { $0.hasPrefix("* BYE") }
            #expect(
                bye?.hasPrefix("* BYE the history changed: the store's history is at revision 0, behind this node's 1")
                    == true)
            // It reloaded the store's state: new clients start from the store's history.
            // (A connection made while the node drops its clients may be dropped too: try again.)
            #expect(eventually { (try? connect(nodes[0]).request("LS /orders").final) == "OK 0 of 0" })
        }
    }
}
