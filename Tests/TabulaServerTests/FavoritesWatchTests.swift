import Foundation
import Testing
import TabulaClient
import TabulaServer

/// A watcher with `FILTER favorites` is sent `/items` as its own `LS` shows it: its snapshot
/// is the favourites, an item becoming one is an `add` at its place among them, one ceasing
/// to be is an `rm` from where it stood, and a change to an item that is none is not sent;
/// live and in a replay. Items 1 and 2 are cheap, 3 and 4 expensive; 2 is the seed's favourite.
@Suite struct FavoritesWatchTests {
    static func watcher(_ s: Server, _ watch: String) throws -> TabulaConnection {
        let c = try connect(s)
        #expect(try c.request("FORMAT json").isOK && c.request("FILTER favorites").isOK)
        let r = try c.request(watch)
        #expect(r.isOK, "\(r.final)")
        return c
    }

    static func events(_ c: TabulaConnection) throws -> [String] {
        #expect(try c.request("PING").isOK)  // after every event that was to come
        return c.takePushes().filter { $0.contains(#""push":"event""#) }
    }

    @Test(arguments: ["memory", "sqlite"])
    func aFavouritesWatcherIsSentItsOwnListsChangesAsAddsAndRemovals(_ kind: String) throws {
        try withServer(store: try makeStore(kind)) { s in
            let c = try Self.watcher(s, "WATCH /items SNAPSHOT")
            #expect(try c.request("PING").isOK)  // after the snapshot's rows
            let rows = c.takePushes().filter { $0.contains(#""push":"row""#) && $0.contains(#""type":"item""#) }
            #expect(rows.count == 1 && rows[0].contains(#""id":2"#), "the snapshot is the favourites: \(rows)")
            let w = try connect(s)
            for line in ["FAV /items/1", "SET /items/3 value=80", "FAV /items/2 off", "SET /items/1 value=90"] {
                #expect(try w.request(line).isOK, "\(line)")
            }
            let seen = try Self.events(c)
            #expect(seen.count == 3, "the change to 3, no favourite, is not sent: \(seen)")
            #expect(seen.first?.contains(#""kind":"add","path":"/items/1""#) == true, "\(seen)")
            #expect(seen.first?.contains(#""at":{"section":"cheap-items","position":1}"#) == true, "\(seen)")
            #expect(seen.dropFirst().first?.contains(#""kind":"rm","path":"/items/2""#) == true, "\(seen)")
            #expect(seen.dropFirst().first?.contains(#""from":{"section":"cheap-items","position":2}"#) == true)
            #expect(seen.last?.contains(#""at":{"section":"expensive-items","position":1}"#) == true, "\(seen)")
            #expect(seen.last?.contains(#""from":{"section":"cheap-items","position":1}"#) == true, "\(seen)")
        }
    }

    @Test(arguments: ["memory", "sqlite"])
    func aFavouritesWatchersReplayIsWhatItWasSentLive(_ kind: String) throws {
        // On SQLite, one event in memory: the replay reads the others from the store.
        try withServer({ $0.historyInMemory = kind == "memory" ? 1_000 : 1 }, store: try makeStore(kind)) { s in
            let w = try connect(s)
            for line in ["FAV /items/1", "SET /items/3 value=80", "FAV /items/2 off", "SET /items/4 value=70"] {
                #expect(try w.request(line).isOK, "\(line)")
            }
            let c = try Self.watcher(s, "WATCH /items FROM 0")
            let seen = try Self.events(c)
            #expect(seen.count == 2, "the changes to 3 and 4, no favourites, are not replayed: \(seen)")
            #expect(seen.first?.contains(#""kind":"add","path":"/items/1""#) == true, "\(seen)")
            #expect(seen.last?.contains(#""kind":"rm","path":"/items/2""#) == true, "\(seen)")
        }
    }

    @Test func filterWhileWatchingCountsTheEventsAfterItInTheNewView() throws {
        try withServer { s in
            let c = try Self.watcher(s, "WATCH /items")
            #expect(try c.request("FILTER all").isOK)
            let w = try connect(s)
            #expect(try w.request("SET /items/3 value=80").isOK)
            let seen = try Self.events(c)
            #expect(seen.count == 1 && seen[0].contains(#""kind":"set","path":"/items/3""#), "\(seen)")
        }
    }
}
