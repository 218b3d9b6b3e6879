import Testing
import TabulaProtocol

@testable import TabulaClient

/// A copy whose resume the history overtook is sent a snapshot in the stream: `* SNAPSHOT`,
/// the old watch's events (held by the rows), the rows, `* SYNCED`.
@Suite struct ReplicaFeedInStreamTests {
    static func item(_ id: Int, _ name: String) -> Push {
        .row(
            path: "/orders/\(id)",
            Row(
                text: "",
                json: .object([("type", .string("order")), ("id", .int(Int64(id))), ("title", .string(name))])))
    }

    static func added(_ rev: UInt64, _ id: Int, _ name: String, at: Int) -> Push {
        var e = Event(
            rev: rev, kind: "order", path: "/orders/\(id)", summary: "",
            value: .object([("type", .string("order")), ("id", .int(Int64(id))), ("title", .string(name))]))
        e.at = Placement(position: at)
        return .event(e)
    }

    /// A feed that held `/orders` through revision 5 (one order), resuming on a new connection.
    static func resuming() -> ReplicaFeed {
        var feed = ReplicaFeed(path: "/orders")
        _ = feed.connected(historyID: "h")
        _ = feed.takeReply(ok: true, message: "watching /orders at rev 5; sending a snapshot")
        _ = feed.take(item(1, "Margherita"))
        _ = feed.take(.synced(rev: 5))
        _ = feed.connected(historyID: "h")
        _ = feed.takeReply(ok: true, message: "watching /orders at rev 40; replaying 30 events")
        return feed
    }

    @Test func aSnapshotInTheStreamReplacesTheCopyAndSkipsTheOldWatchsEvents() {
        var feed = Self.resuming()
        _ = feed.take(Self.added(6, 2, "Pesto", at: 2))
        #expect(feed.replica.rowCount == 2)
        _ = feed.take(.snapshot(prefix: "/orders", reason: "the history moved past revision 6"))
        #expect(feed.phase == .snapshot)
        // Of a revision the rows hold: not applied on top of them.
        _ = feed.take(Self.added(41, 3, "Tiramisu", at: 3))
        for (id, name) in [(1, "Margherita"), (3, "Tiramisu")] { _ = feed.take(Self.item(id, name)) }
        #expect(feed.take(.synced(rev: 41)) == .changed(ListChange(rev: 41, reset: true)))
        #expect(feed.replica.entries.map(\.path) == ["/orders/1", "/orders/3"])
        #expect(feed.replica.rev == 41 && feed.phase == .live && feed.snapshots == 2)
        _ = feed.take(Self.added(42, 4, "Pesto", at: 3))
        #expect(feed.replica.entries.map(\.path) == ["/orders/1", "/orders/3", "/orders/4"])
    }

    @Test func aSnapshotInTheStreamOnlyEndsAReplayAndLeavesALiveCopyAlone() {
        var feed = Self.resuming()
        _ = feed.take(.synced(rev: 40))
        _ = feed.take(.snapshot(prefix: "/orders", reason: "the history moved past revision 6"))
        #expect(feed.phase == .live && feed.replica.rowCount == 1 && feed.snapshots == 1)
    }

    @Test func aSnapshotCutShortIsTakenAgainWholeNotResumedFromNothing() {
        var feed = Self.resuming()
        _ = feed.take(.snapshot(prefix: "/orders", reason: "the history moved past revision 6"))
        _ = feed.take(Self.item(1, "Margherita"))
        feed.lost()
        #expect(feed.connected(historyID: "h") == ["FORMAT json", "WATCH /orders SNAPSHOT PROGRESS"])
    }
}
