import Foundation
import Testing
import TabulaClient
import TabulaServer

/// A move's event names its position in the whole section; a watcher with grants, whose view
/// lacks some of the section, is sent it without the position, which would count hidden
/// items (the fourth hostile round: a user denied /items/3 who moved /items/4 to its #1 was
/// told #2).
@Suite struct EventPositionGrantsTests {
    @Test func aRestrictedWatcherIsToldAMoveWithoutAPositionAndAnAdminWithIt() throws {
        try AccessControlTests.withUsers { s in
            let ci = try AccessControlTests.login(s, "ci"), admin = try AccessControlTests.login(s, "admin")
            #expect(try ci.request("WATCH /items").isOK)
            let watching = try AccessControlTests.login(s, "admin")
            #expect(try watching.request("WATCH /items").isOK)
            #expect(try admin.request("MV /items/4 1").isOK)
            let full = try #require(try watching.waitPush(timeout: 5) { $0.hasPrefix("* EVENT") })
            #expect(full.contains(" mv /items/4 #1 in "), "\(full)")
            let told = try #require(try ci.waitPush(timeout: 5) { $0.hasPrefix("* EVENT") })
            #expect(told.contains(" mv /items/4 in ") && !told.contains("#"), "\(told)")
        }
    }

    @Test func aRestrictedWritersOwnMoveEventNamesNoPositionEither() throws {
        try AccessControlTests.withUsers { s in
            let ci = try AccessControlTests.login(s, "ci")
            #expect(try ci.request("WATCH /items").isOK)
            let moved = try ci.request("MV /items/2 1")
            #expect(moved.isOK, "\(moved.final)")
            let own = try #require(
                moved.lines.first { $0.hasPrefix("* EVENT") }
                    ?? (try ci.waitPush(timeout: 5) { $0.hasPrefix("* EVENT") }))
            #expect(!own.contains("#"), "\(own)")
        }
    }

    @Test func aRestrictedWatchersReplayOfAMoveNamesNoPosition() throws {
        try AccessControlTests.withUsers { s in
            let admin = try AccessControlTests.login(s, "admin")
            #expect(try admin.request("MV /items/4 1").isOK)
            let ci = try AccessControlTests.login(s, "ci")
            let replayed = try ci.request("WATCH /items FROM 0")
            #expect(replayed.isOK, "\(replayed.final)")
            let event = try #require(
                replayed.lines.first { $0.hasPrefix("* EVENT") }
                    ?? (try ci.waitPush(timeout: 5) { $0.hasPrefix("* EVENT") }))
            #expect(event.contains(" mv /items/4 in ") && !event.contains("#"), "\(event)")
        }
    }
}
