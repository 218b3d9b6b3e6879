import Foundation
import Testing
import TabulaClient
import TabulaServer

/// Removing something is an event for everyone watching under it, live and replayed, on
/// both kinds of store.
@Suite struct RemovalEventTests {
    @Test(arguments: ["memory", "sqlite"])
    func aWatcherBelowARemovedNodeIsToldLiveAndInAReplay(_ kind: String) throws {
        try withServer(store: try makeStore(kind)) { s in
            let below = try connect(s), writer = try connect(s)
            #expect(try below.request("WATCH /catalog/item-1/item-1.1").isOK)
            #expect(try writer.request("RM /catalog/item-1").isOK)
            let live = try below.waitPush(timeout: 5) { _ in true }
            #expect(live?.hasPrefix("* EVENT 1 rm /catalog/item-1 ") == true, "\(live ?? "nothing")")
            let later = try connect(s)
            let r = try later.request("WATCH /catalog/item-1/item-1.1 FROM 0")
            #expect(r.final == "OK watching /catalog/item-1/item-1.1 at rev 1; replaying 1 event")
            #expect(try later.waitPush(timeout: 5) { _ in true }?.hasPrefix("* EVENT 1 rm /catalog/item-1 ") == true)
        }
    }

    @Test func clearingTheOrdersReachesAWatcherOfOneOrder() throws {
        try withServer { s in
            let c = try connect(s), other = try connect(s)
            #expect(try c.request("ORDER pesto").isOK)
            #expect(try c.request("WATCH /orders/1").isOK)
            #expect(try other.request("RM /orders").isOK)
            #expect(try c.waitPush(timeout: 5) { _ in true }?.hasPrefix("* EVENT 2 clear /orders ") == true)
        }
    }
}
