import Foundation
import Testing
import TabulaClient
import TabulaProtocol
import TabulaServer
import TabulaStorage

/// `WATCH … SNAPSHOT`: the rows as they are, then `* SYNCED`, then live events, with no gap;
/// and standing in for a resume that cannot be made.
@Suite struct SnapshotWatchTests {
    @Test func aSnapshotSendsTheListsRowsThenSyncedThenLiveEvents() throws {
        try withServer { s in
            let w = try connect(s), other = try connect(s)
            _ = try other.request("ORDER margherita")
            let r = try w.request("WATCH /orders SNAPSHOT")
            #expect(r.final == "OK watching /orders at rev 1; sending a snapshot")
            let row = try #require(try w.waitPush(timeout: 5) { _ in true })
            #expect(row.hasPrefix("* ROW 1  Margherita"), "\(row)")
            #expect(try w.waitPush(timeout: 5) { _ in true } == "* SYNCED 1")
            _ = try other.request("ORDER pesto")
            #expect(try w.waitPush(timeout: 5) { _ in true }?.hasPrefix("* EVENT 2 order /orders/2") == true)
        }
    }

    @Test func aSnapshotRowInJSONNamesItsPathAndCarriesItsRevision() throws {
        try withServer { s in
            let w = try connect(s)
            _ = try w.request("FORMAT json")
            _ = try w.request("WATCH /settings SNAPSHOT")
            let row = try #require(try w.waitPush(timeout: 5) { _ in true })
            #expect(row.hasPrefix(#"{"push":"row","path":"/settings/my-string","value":{"name":"my-string""#), "\(row)")
            #expect(row.contains(#""rev":0"#))
        }
    }

    @Test func aSnapshotIsOfTheWatchersFilteredListLikeTheEventsAfterIt() throws {
        try withServer { s in
            let w = try connect(s)
            _ = try w.request("FILTER favorites")
            #expect(
                try w.request("LS /items").data.count == 4,
                "LS keeps the filter: 2 headers, No Items and the one favourite")
            _ = try w.request("WATCH /items SNAPSHOT")
            var rows: [String] = []
            while let p = try w.waitPush(timeout: 5, where: { _ in true }), p.hasPrefix("* ROW ") { rows.append(p) }
            #expect(rows.count == 4, "what LS shows: 2 headers, No Items and the one favourite: \(rows)")
        }
    }

    @Test func aWatchOfAPriceSectionIsRefusedSayingToWatchTheItems() throws {
        try withServer { s in
            let w = try connect(s)
            for line in ["WATCH /items/cheap-items", "WATCH /items/cheap-items SNAPSHOT"] {
                let r = try w.request(line)
                #expect(
                    r.final
                        == "ERR INVALID /items/cheap-items is a price section, and an item's changes are events at /items/ID, not under it: WATCH /items (each event's at names its section)",
                    "\(line)")
            }
            #expect(try w.request("WATCH /items/1").isOK, "an item's own path is watched")
            _ = try w.request("UNWATCH")
            #expect(try w.request("PING").final == "OK PONG")
            #expect(w.takePushes().isEmpty, "nothing was watched")
        }
    }

    @Test func aSnapshotStandsInForAnExpiredResume() throws {
        try withServer({ $0.historyInMemory = 3 }) { s in
            let w = try connect(s)
            for _ in 0..<6 { _ = try w.request("ORDER pesto") }
            #expect(try w.request("WATCH /orders FROM 1").reply.error?.code == .expired)
            #expect(
                try w.request("WATCH /orders FROM 1 SNAPSHOT").final
                    == "OK watching /orders at rev 6; sending a snapshot")
            #expect(
                try w.request("WATCH /orders FROM 99 SNAPSHOT").final
                    == "OK watching /orders at rev 6; sending a snapshot", "a revision of another history")
            #expect(
                try w.request("WATCH /orders FROM 5 SNAPSHOT").final
                    == "OK watching /orders at rev 6; replaying 1 event", "a resume the history holds replays")
        }
    }

    @Test func aResumeFromBeforeARestartIsSentASnapshotWhoseRevisionsReadAsNow() throws {
        let file = tempDB()
        try withServer(store: try SQLiteStore(path: file, syncFull: false)) { s in
            _ = try connect(s).request("ORDER pesto")
        }
        try withServer(store: try SQLiteStore(path: file, syncFull: false)) { s in
            let w = try connect(s)
            #expect(
                try w.request("WATCH /orders FROM 1 SNAPSHOT").final
                    == "OK watching /orders at rev 1; sending a snapshot")
            #expect(
                try w.request("WATCH /items FROM 0").final == "OK watching /items at rev 1; replaying 0 events",
                "without SNAPSHOT it replays")
        }
    }

    @Test func aSnapshotOfWhatIsNotAListIsRefusedAndWatchesNothing() throws {
        try withServer { s in
            let w = try connect(s)
            #expect(
                try w.request("WATCH /items/1 SNAPSHOT").final.hasPrefix(
                    "ERR INVALID SNAPSHOT sends the rows of a list, and /items/1 is not one"))
            #expect(try w.request("UNWATCH /items/1").reply.error?.code == .notFound)
        }
    }

    @Test func aWatcherWithADenyUnderTheListIsToldPositionsInItsOwnViewAndOneWithNoneInTheWholeList() throws {
        try AccessControlTests.withUsers { s in
            let ops = try AccessControlTests.login(s, "ops"), ci = try AccessControlTests.login(s, "ci"),
                admin = try AccessControlTests.login(s, "admin")
            for c in [ops, ci] {
                _ = try c.request("FORMAT json")
                #expect(try c.request("WATCH /").isOK)
            }
            #expect(try admin.request("ADD /items Lamp 30").isOK)
            let hidden = try #require(try ci.waitPush(timeout: 5) { $0.contains(#""push":"event""#) })
            // Cheap items 1 and 2, then the lamp ($30): ci, denied only /items/3 (expensive), sees all three.
            #expect(
                hidden.contains(#""at":{"section":"cheap-items","position":3}"#),
                "ci is denied /items/3: its own view, \(hidden)")
            #expect(try admin.request("SET /menu/pizza title=Pies").isOK)
            // ops may read /orders whole, but any deny hides orders of denied entries: ops has none.
            #expect(try admin.request("ORDER pesto").isOK)
            let order = try #require(try ops.waitPush(timeout: 5) { $0.contains(#""kind":"order""#) })
            #expect(order.contains(#""at":{"position":1}"#), "\(order)")
        }
    }

    @Test func aQuietWatchWithProgressIsToldTheRevisionOthersMoved() throws {
        try withServer({ $0.progressSeconds = 1 }) { s in
            let w = try connect(s), other = try connect(s)
            #expect(try w.request("WATCH /orders PROGRESS").isOK)
            for _ in 0..<3 { _ = try other.request("ADD /items Cup 3") }
            let marker = try w.waitPush(timeout: 10) { $0.hasPrefix("* SYNCED") }
            #expect(marker == "* SYNCED 3", "the quiet watch of /orders may resume from 3")
            #expect(w.lastRevision == 3)
        }
    }

    @Test func aWatchWithoutProgressIsSentNoMarker() throws {
        // One loop: the sweep that tells the watch with PROGRESS passes the one without too.
        try withServer({
            $0.progressSeconds = 1; $0.ioThreads = 1
        }) { s in
            let plain = try connect(s), asked = try connect(s), other = try connect(s)
            #expect(try plain.request("WATCH /orders").isOK)
            #expect(try asked.request("WATCH /orders PROGRESS").isOK)
            _ = try other.request("ADD /items Cup 3")
            #expect(try asked.waitPush(timeout: 10) { $0.hasPrefix("* SYNCED") } == "* SYNCED 1")
            _ = try plain.request("PING")
            #expect(plain.takePushes().isEmpty)
        }
    }

    @Test func snapshotsBeingSentAreBoundedAndAClosedOneGivesItsPlaceBack() throws {
        try withServer({ $0.maxSnapshots = 1 }) { s in
            let filler = try connect(s)
            let name = String(repeating: "x", count: 400)
            for _ in 0..<10 {  // in steps the server reads at once (it holds 4,096 requests of a client)
                try filler.line.sendRaw(Array(String(repeating: "ADD /items \(name) 5\n", count: 2_000).utf8))
                for _ in 0..<2_000 { _ = try filler.readReply(timeout: 30) }
            }
            // A client that asks for about 9 MB of rows, a page of 430 KB at a time, reads its
            // reply and then nothing: its snapshot stays in progress. Its receive buffer is kept
            // small, and the rows are more than the server's send buffer on loopback takes (up
            // to 4 MB): 20,000 short rows could be taken whole by the buffers, and end.
            let stalled = try rawConnect(s)
            var small: Int32 = 4096
            setsockopt(stalled.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
            try stalled.send("WATCH /items SNAPSHOT")
            #expect(try stalled.readLine(timeout: 30)?.hasPrefix("OK watching /items") == true, "the snapshot began")
            let b = try connect(s)
            func ask() throws -> ServerReply {
                let r = try b.request("WATCH /orders SNAPSHOT")
                if r.isOK { _ = try b.request("UNWATCH /orders") }
                return r
            }
            let deadline = Date().addingTimeInterval(10)
            var refused = try ask()
            while refused.isOK && Date() < deadline { refused = try ask() }
            #expect(
                refused.final.hasPrefix("ERR LIMIT 1 snapshots are being sent, the most at once"), "\(refused.final)")
            shutdown(stalled.fd, Int32(SHUT_RDWR))  // the client goes away
            var again = try ask()
            while !again.isOK && Date() < deadline.addingTimeInterval(10) { again = try ask() }
            #expect(again.isOK, "the closed connection's snapshot gave its place back: \(again.final)")
        }
    }
}
