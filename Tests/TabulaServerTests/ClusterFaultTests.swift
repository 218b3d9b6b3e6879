import Foundation
import Testing
import TabulaClient
import TabulaServer
@testable import TabulaStorage
import TabulaTestSupport

/// A cluster node under a durable step that cannot finish (another session holds the row
/// it raises): a turn that caught another node's change it cannot confirm durable answers
/// nothing computed from that change, and the node lives.
@Suite(
    "A cluster node whose caught changes cannot be confirmed durable",
    .enabled(if: testPostgres != nil, "needs TABULA_TEST_POSTGRES (Scripts/test starts a private PostgreSQL)"))
struct ClusterFaultTests {
    @Test("a watcher's conflicting write in a turn whose caught change is not durable is refused, and the node lives")
    func aTurnWhoseCaughtChangeIsNotDurableAnswersNothingFromIt() throws {
        try withCluster { nodes, db in
            let w = try connect(nodes[0])
            #expect(try w.request("WATCH /settings").isOK)
            #expect(try w.request("SELECT /settings/my-string #2").isOK)
            // The durable row held: B's change commits but is never confirmed flushed.
            let holder = try PGConnection(db, name: "tabula-tests")
            _ = try holder.execEach("BEGIN; SELECT rev FROM tabula_durable WHERE id = 1 FOR UPDATE")
            let x = try connect(nodes[1])
            let b = try x.request("SELECT /settings/my-int #3", timeout: 40)
            #expect(b.final.hasPrefix("ERR INDOUBT") || b.final.hasPrefix("ERR STORAGE"), "\(b.final)")
            // A catches B's change in its turn, conflicts with it, and cannot confirm it.
            let a = try w.request("SELECT /settings/my-int #4 IF REV 0", timeout: 40)
            #expect(a.final.hasPrefix("ERR STORAGE") || a.final.hasPrefix("ERR CONFLICT"), "\(a.final)")
            let shown = try w.request("SHOW /settings/my-int", timeout: 40)
            #expect(
                !shown.data.contains("selected: 32 (#3)") || !a.final.hasPrefix("ERR CONFLICT"),
                "a reply computed from the unconfirmed change: \(a.final), \(shown.data)")
            try holder.exec("ROLLBACK")
            #expect(try w.request("PING").final == "OK PONG", "node A lives")
            #expect(try connect(nodes[0]).request("PING").final == "OK PONG")
        }
    }
}
