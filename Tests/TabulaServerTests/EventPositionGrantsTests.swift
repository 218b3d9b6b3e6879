import Foundation
import Testing
import TabulaClient
import TabulaServer

/// A watcher whose grants hide part of a list is sent positions counted in its own view, as
/// its own `LS` shows the list, live, for its own writes and in replays; the whole list's
/// positions would count what it may not see (the fourth hostile round: a user denied
/// /items/3 was told #2 for a move to its #1). User `ci` is denied /items/3; the expensive
/// items are 3 and 4, and an added 5, so a move of 5 to the whole section's #2 is ci's #1.
@Suite struct EventPositionGrantsTests {
    /// Adds item 5 to the expensive items (after 3 and 4), then moves it to their #2: in ci's
    /// view (4, 5 → 5, 4) it went from #2 to #1.
    static func moveFiveToTheSecondPlace(_ admin: TabulaConnection) throws {
        #expect(try admin.request(#"ADD /items "Brass Lamp" 70"#).isOK)
        #expect(try admin.request("MV /items/5 2").isOK)
    }

    @Test func aRestrictedWatcherIsToldAMoveAtItsPlaceInItsOwnViewAndAnAdminInTheWholeList() throws {
        try AccessControlTests.withUsers { s in
            let ci = try AccessControlTests.login(s, "ci"), admin = try AccessControlTests.login(s, "admin")
            let watching = try AccessControlTests.login(s, "admin")
            #expect(try ci.request("WATCH /items").isOK && watching.request("WATCH /items").isOK)
            try Self.moveFiveToTheSecondPlace(admin)
            let full = try #require(try watching.waitPush(timeout: 5) { $0.contains(" mv ") })
            #expect(full.contains(" mv /items/5 #2 in expensive-items: "), "\(full)")
            let told = try #require(try ci.waitPush(timeout: 5) { $0.contains(" mv ") })
            #expect(told.contains(" mv /items/5 #1 in expensive-items: "), "\(told)")
        }
    }

    @Test func aRestrictedWatcherInJSONIsToldWhereTheEntryStandsAndStoodInItsView() throws {
        try AccessControlTests.withUsers { s in
            let ci = try AccessControlTests.login(s, "ci"), admin = try AccessControlTests.login(s, "admin")
            #expect(try ci.request("FORMAT json").isOK && ci.request("WATCH /items").isOK)
            try Self.moveFiveToTheSecondPlace(admin)
            let added = try #require(try ci.waitPush(timeout: 5) { $0.contains(#""kind":"add""#) })
            #expect(added.contains(#""at":{"section":"expensive-items","position":2}"#), "\(added)")
            let moved = try #require(try ci.waitPush(timeout: 5) { $0.contains(#""kind":"mv""#) })
            #expect(moved.contains(#""at":{"section":"expensive-items","position":1}"#), "\(moved)")
            #expect(moved.contains(#""from":{"section":"expensive-items","position":2}"#), "\(moved)")
            #expect(moved.contains(#""position":1,"#) || moved.contains(#""position":1}"#), "the value's: \(moved)")
        }
    }

    @Test func aRestrictedWritersOwnMoveEventCountsInItsOwnView() throws {
        try AccessControlTests.withUsers { s in
            let ci = try AccessControlTests.login(s, "ci")
            #expect(try ci.request("WATCH /items").isOK)
            #expect(try ci.request(#"ADD /items "Brass Lamp" 70"#).isOK)
            let moved = try ci.request("MV /items/5 1")  // its own #1: ahead of 4 (3 it does not see)
            #expect(moved.isOK, "\(moved.final)")
            let own = try #require(
                moved.lines.first { $0.contains(" mv ") } ?? (try ci.waitPush(timeout: 5) { $0.contains(" mv ") }))
            #expect(own.contains(" mv /items/5 #1 in expensive-items: "), "\(own)")
        }
    }

    @Test(arguments: ["memory", "sqlite"])
    func aRestrictedWatchersReplayOfAMoveCountsInItsOwnView(_ kind: String) throws {
        try AccessControlTests.withUsers({ $0.historyInMemory = kind == "memory" ? 1_000 : 1 }, store: makeStore(kind))
        {
            s in
            let admin = try AccessControlTests.login(s, "admin")
            try Self.moveFiveToTheSecondPlace(admin)
            #expect(try admin.request("FAV /items/1").isOK)  // so that the move is read from the store
            let ci = try AccessControlTests.login(s, "ci")
            let replayed = try ci.request("WATCH /items FROM 0")
            #expect(replayed.isOK, "\(replayed.final)")
            var event = replayed.lines.first { $0.contains(" mv ") }
            if event == nil { event = try ci.waitPush(timeout: 5) { $0.contains(" mv ") } }
            #expect(event?.contains(" mv /items/5 #1 in expensive-items: ") == true, "\(event ?? "none")")
        }
    }
}
