import Testing
import TabulaModel
import TabulaProtocol

@testable import TabulaServer

/// A writer's own event is looked up under the write lock and encoded after it, with the
/// replies (`Answer.event`), as every other watcher's is (Publication.swift).
@Suite struct OwnEventTests {
    @Test func aWatchersOwnEventIsAnAnswerEncodedAfterTheLockInItsViewAndFormat() {
        let state = SharedState(model: SeedData.model(now: 1_700_000_000), historyCapacity: 10, historyID: "0")
        let c = ConnectionID(loop: 0, serial: 1)
        state.hub.withLock {
            _ = $0.add(
                c, "/items", format: .json, view: WatcherView(grants: Grants(deny: ["/items/3"]), favoritesOnly: false))
        }
        var e = Event(
            rev: 5, kind: "mv", path: "/items/4", summary: "#1 in expensive-items: 4  Rusty Mac", value: .null)
        e.at = Placement(section: "expensive-items", position: 1)
        guard case .event(let told, let channel, let format)? = state.ownEvent(e, for: c, stats: ServerStats()) else {
            Issue.record("not an unencoded answer")
            return
        }
        #expect(channel == "/items" && format == .json)
        #expect(told.at == Placement(section: "expensive-items", position: nil), "a deny under /items: no position")
        var out: [UInt8] = []
        var cache = ReplyCache()
        _ = Answer.encode([.event(told, channel: channel, format: format)], cache: &cache, into: &out)
        #expect(String(decoding: out, as: UTF8.self).contains(#""at":{"section":"expensive-items"}"#))
    }
}
