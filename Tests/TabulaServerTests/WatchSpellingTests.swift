import Foundation
import Testing
import TabulaClient
import TabulaServer

/// A watch is kept as the model spells its prefix, and matched on bytes: live events and a
/// replay of the same history reach the same watches, whatever spelling WATCH was given.
@Suite struct WatchSpellingTests {
    /// `café` with a combining accent: equal to the composed one as a `String`, not in bytes.
    static let decomposed = "cafe\u{301}"

    @Test(arguments: ["memory", "sqlite"])
    func aWatchInAnotherSpellingOfAnEntryIsSentWhatItsReplayIsSent(_ kind: String) throws {
        try withServer(store: try makeStore(kind)) { s in
            let writer = try connect(s), live = try connect(s)
            #expect(try writer.request("ADD /catalog caf\u{E9}").isOK)  // rev 1, stored composed
            let ack = try live.request("WATCH /catalog/\(Self.decomposed)")
            #expect(ack.final == "OK watching /catalog/caf\u{E9} at rev 1", "\(ack.final)")
            #expect(try writer.request("ADD /catalog/caf\u{E9} x").isOK)  // rev 2
            let pushed = try live.waitPush(timeout: 5) { _ in true }
            #expect(pushed?.hasPrefix("* EVENT 2 add /catalog/caf\u{E9}/x ") == true, "\(pushed ?? "nothing")")
            let later = try connect(s)
            let replay = try later.request("WATCH /catalog/\(Self.decomposed) FROM 1")
            #expect(replay.final == "OK watching /catalog/caf\u{E9} at rev 2; replaying 1 event", "\(replay.final)")
            #expect(
                try later.waitPush(timeout: 5) { _ in true }?.hasPrefix("* EVENT 2 add /catalog/caf\u{E9}/x ") == true)
            #expect(try live.request("UNWATCH /catalog/\(Self.decomposed)").final == "OK 1 removed")
        }
    }

    @Test func aWatchOfAnItemThroughItsSectionOrInCapitalsIsAWatchOfTheItem() throws {
        try withServer { s in
            let c = try connect(s), writer = try connect(s)
            #expect(try c.request("WATCH /items/cheap-items/1").final == "OK watching /items/1 at rev 0")
            #expect(try c.request("WATCH /CATALOG/ITEM-1").final == "OK watching /catalog/item-1 at rev 0")
            #expect(try writer.request("FAV /items/1").isOK)
            #expect(try c.waitPush(timeout: 5) { _ in true }?.hasPrefix("* EVENT 1 fav /items/1 ") == true)
            #expect(try writer.request("ADD /catalog/item-1 zz").isOK)
            #expect(try c.waitPush(timeout: 5) { _ in true }?.hasPrefix("* EVENT 2 add /catalog/item-1/zz ") == true)
            #expect(try c.request("UNWATCH /items/cheap-items/1").final == "OK 1 removed")
            #expect(try c.request("UNWATCH /catalog/item-1").final == "OK 1 removed")
        }
    }

    @Test func aWatchOfAPathNotThereYetInAnotherSpellingIsNotSentTheEntryAddedLater() throws {
        try withServer { s in
            let c = try connect(s), writer = try connect(s)
            #expect(try c.request("WATCH /catalog/\(Self.decomposed)").isOK)
            #expect(try writer.request("ADD /catalog caf\u{E9}").isOK)
            #expect(try writer.request("ADD /catalog/caf\u{E9} x").isOK)
            // Nothing for it: a PING's answer comes after where the events would have been.
            #expect(try c.request("PING").isOK)
            #expect(c.pushes.isEmpty, "\(c.pushes)")
            let replay = try c.request("WATCH /catalog/\(Self.decomposed)x FROM 0")
            #expect(replay.final.hasSuffix("replaying 0 events"), "\(replay.final)")
        }
    }

    @Test func aRedisClientIsConfirmedTheChannelAsWatchedOnSubscribeAndUnsubscribe() throws {
        try withServer { s in
            let resp = try RESPTestClient(port: s.port)
            resp.send("SUBSCRIBE", "/ITEMS")
            resp.send("PING", "one")
            let subscribed = try resp.take(through: "one")
            #expect(subscribed.contains("/items\r\n") && !subscribed.contains("/ITEMS"), "\(subscribed)")
            resp.send("UNSUBSCRIBE", "/ITEMS")
            resp.send("PING", "two")
            let gone = try resp.take(through: "two"), rest = ""
            #expect(gone.contains("/items\r\n"), "\(gone)")
            #expect(!(gone + rest).contains("/ITEMS"), "confirmed as it was watched: \(gone + rest)")
        }
    }
}
