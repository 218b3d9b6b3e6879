import Foundation
import Testing
import TabulaAccess
import TabulaClient
import TabulaModel
import TabulaServer

@testable import TabulaServer

/// A watcher's copies count in its grants' view, so its grants cannot change under them
/// silently: AUTH as a user with other grants is refused while the connection watches; a
/// reload of the users file that changes a watching user's grants ends the connection, and a
/// copy from before the change cannot be resumed (only a snapshot starts it again). A plain
/// watcher's replay is counted without reading its events.
@Suite struct GrantsChangeWhileWatchingTests {
    @Test func authAsAUserWithOtherGrantsIsRefusedWhileWatchingAndTakenAfterUnwatch() throws {
        try AccessControlTests.withUsers { s in
            let c = try AccessControlTests.login(s, "admin")
            #expect(try c.request("WATCH /items").isOK)
            let refused = try c.request("AUTH ci pw-ci")
            #expect(refused.reply.error?.code == .conflict, "\(refused.final)")
            #expect(try c.request("WHOAMI").final.hasPrefix("OK admin"), "still the admin")
            #expect(try c.request("UNWATCH").isOK)
            #expect(try c.request("AUTH ci pw-ci").final == "OK ci write")
        }
    }

    @Test func aReloadChangingAWatchersGrantsEndsItAndItsCopyResumesOnlyBySnapshot() throws {
        try AccessControlTests.withUsers { s in
            let ci = try AccessControlTests.login(s, "ci")
            #expect(try ci.request("WATCH /items").isOK)
            let admin = try AccessControlTests.login(s, "admin")
            #expect(try admin.request("FAV /items/1").isOK)  // rev 1: the copy holds it
            var users = AccessControlTests.users
            users["ci"] = AccessControlTests.regranted("ci", .write, allow: ["/items", "/orders"], deny: ["/items/4"])
            #expect(s.reloadUsers(users))
            let bye = try ci.waitPush(timeout: 5) { $0.hasPrefix("* BYE") }
            #expect(bye?.contains("grants of user ci changed") == true, "\(bye ?? "no goodbye")")
            let again = try AccessControlTests.login(s, "ci")
            let resumed = try again.request("WATCH /items FROM 1")
            #expect(resumed.reply.error?.code == .expired, "\(resumed.final)")
            #expect(try again.request("WATCH /items FROM 1 SNAPSHOT").final.hasSuffix("sending a snapshot"))
        }
    }

    @Test func aPlainWatchersReplayIsCountedWithoutReadingItsEvents() {
        let plain = ReplayPlan(
            prefix: "/", after: 0, through: 9, rev: 9, tag: nil, addedWatch: true,
            view: WatcherView(grants: nil, favoritesOnly: false))
        #expect(plain.view == nil, "a plain view takes the count's cheap path")
        let filtered = ReplayPlan(
            prefix: "/", after: 0, through: 9, rev: 9, tag: nil, addedWatch: true,
            view: WatcherView(grants: nil, favoritesOnly: true))
        #expect(filtered.view != nil)
    }
}

/// What a reload leaves alone: a watcher whose user's grants did not change, a copy from after
/// the change, and AUTH again as a user of the same view.
@Suite struct GrantsUnchangedWhileWatchingTests {
    @Test func aReloadThatLeavesAWatchersGrantsKeepsItAndACopyFromAfterResumes() throws {
        try AccessControlTests.withUsers { s in
            let ops = try AccessControlTests.login(s, "ops")
            #expect(try ops.request("WATCH /orders").isOK)
            let admin = try AccessControlTests.login(s, "admin")
            var users = AccessControlTests.users
            users["ci"] = AccessControlTests.regranted("ci", .write, allow: ["/items"], deny: ["/items/4"])
            #expect(s.reloadUsers(users))
            #expect(try admin.request("ORDER pesto").isOK)  // after the reload
            #expect(try ops.waitPush(timeout: 5) { $0.contains(" order ") } != nil, "ops still watches")
            let ci = try AccessControlTests.login(s, "ci")
            let after = try #require(ci.helloRevision > 0 ? ci.helloRevision : 1)
            let resumed = try ci.request("WATCH /items FROM \(after)")
            #expect(resumed.isOK, "a copy from after the change resumes: \(resumed.final)")
        }
    }

    @Test func authAgainAsAUserOfTheSameViewIsTakenWhileWatching() throws {
        try AccessControlTests.withUsers { s in
            let c = try AccessControlTests.login(s, "admin")
            #expect(try c.request("WATCH /items").isOK)
            #expect(try c.request("AUTH writer pw-writer").final == "OK writer write", "no grants either")
        }
    }
}
