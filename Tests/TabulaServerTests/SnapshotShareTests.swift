import Foundation
import Glibc
import Testing
import TabulaClient

@testable import TabulaServer

/// Snapshot places are shared fairly: one user (or one remote address) takes at most a
/// quarter of them, and a connection that does not read its snapshot gives its place back
/// within seconds while places are short, whoever shares its account.
@Suite struct SnapshotShareTests {
    @Test func oneOwnerTakesAtMostItsShareAndTheTotalStillBoundsEveryone() {
        let places = SnapshotCount(most: 8)
        #expect(places.perOwner == 2)
        let mine = (0..<3).map { _ in places.take(owner: "user ci", revision: 1) }
        #expect(mine.compactMap { $0 }.count == 2, "a third place for one user")
        let local = (0..<10).map { _ in places.take(owner: nil, revision: 1) }
        #expect(local.compactMap { $0 }.count == 6, "this machine's clients: the total alone")
        #expect(places.take(owner: "user other", revision: 1) == nil, "the total is reached")
    }

    @Test func aPlaceComesBackWhenItsSnapshotGoes() {
        let places = SnapshotCount(most: 4)
        var held = places.take(owner: "user ci", revision: 1)
        #expect(places.take(owner: "user ci", revision: 1) == nil)
        held = nil
        let again = places.take(owner: "user ci", revision: 1)
        #expect(held == nil && again != nil)
        #expect(places.inUse == 1)
    }

    /// A client of `s`, logged in as `user` (nil: none), that asks for a snapshot of ~9 MB of
    /// rows and reads nothing after the reply: its snapshot stays in progress.
    static func stalledSnapshot(_ s: Server, as user: String?) throws -> LineConnection {
        let c = try rawConnect(s)
        var small: Int32 = 4096
        setsockopt(c.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        if let user {
            try c.send("AUTH \(user) pw-\(user)")
            #expect(try c.readLine(timeout: 10)?.hasPrefix("OK") == true)
        }
        try c.send("WATCH /items SNAPSHOT")
        #expect(try c.readLine(timeout: 30)?.hasPrefix("OK watching /items") == true, "the snapshot began")
        return c
    }

    /// `WATCH /orders SNAPSHOT` asked of `c` until granted (20 s at most): the last reply,
    /// and the seconds it took.
    static func snapshotGranted(to c: TabulaConnection) throws -> (ServerReply, Double) {
        let started = Date()
        var r = try c.request("WATCH /orders SNAPSHOT")
        while !r.isOK && Date().timeIntervalSince(started) < 20 { r = try c.request("WATCH /orders SNAPSHOT") }
        return (r, Date().timeIntervalSince(started))
    }

    /// 20,000 items of 400-byte names: more rows than the sockets' buffers take.
    static func fill(_ filler: TabulaConnection) throws {
        let name = String(repeating: "x", count: 400)
        for _ in 0..<10 {
            try filler.line.sendRaw(Array(String(repeating: "ADD /items \(name) 5\n", count: 2_000).utf8))
            for _ in 0..<2_000 { _ = try filler.readReply(timeout: 30) }
        }
    }

    @Test func aUserWhoseSnapshotsAreNotReadCannotTakeAnotherUsersPlace() throws {
        try AccessControlTests.withUsers({ $0.maxSnapshots = 4 }) { s in
            try Self.fill(try AccessControlTests.login(s, "admin"))
            let stalled = try Self.stalledSnapshot(s, as: "reader")
            let again = try AccessControlTests.login(s, "reader")
            let refused = try again.request("WATCH /orders SNAPSHOT")
            #expect(
                refused.final.hasPrefix("ERR LIMIT 1 snapshots are being sent to user reader, its share"),
                "\(refused.final)")
            let other = try AccessControlTests.login(s, "writer")
            #expect(try other.request("WATCH /orders SNAPSHOT").isOK, "another user's snapshot")
            _ = stalled
        }
    }

    @Test func aSharedAccountsUnreadSnapshotGivesItsPlaceToTheSameUserWithinSeconds() throws {
        try AccessControlTests.withUsers({ $0.maxSnapshots = 4 }) { s in
            try Self.fill(try AccessControlTests.login(s, "admin"))
            let stalled = try Self.stalledSnapshot(s, as: "reader")
            let victim = try AccessControlTests.login(s, "reader")
            let (r, took) = try Self.snapshotGranted(to: victim)
            #expect(r.isOK, "the attacker's unread snapshot still holds the user's share: \(r.final)")
            #expect(took < 15, "given back at the stall timeout, not within seconds")
            _ = stalled
        }
    }

    @Test func aSnapshotNobodyReadsGivesItsPlaceBackWithinSecondsWhilePlacesAreShort() throws {
        try withServer({ $0.maxSnapshots = 1 }) { s in
            try Self.fill(try connect(s))
            let stalled = try Self.stalledSnapshot(s, as: nil)
            let b = try connect(s)
            let (r, took) = try Self.snapshotGranted(to: b)
            #expect(r.isOK, "the unread snapshot still holds the only place: \(r.final)")
            #expect(took < 15, "given back at the stall timeout, not within seconds")
            _ = stalled
        }
    }

    @Test func unreadSnapshotsKeepAtMostTwoOldVersionsOfTheModelAliveTheOldestGoFirst() throws {
        try withServer { s in
            let writer = try connect(s)
            try Self.fill(writer)
            var stalled: [LineConnection] = []
            for i in 0..<4 {
                stalled.append(try Self.stalledSnapshot(s, as: nil))
                #expect(try writer.request("ADD /items later-\(i) 1").isOK, "a write after each: four versions")
            }
            #expect(try stat(writer, "snapshot_old_versions") == 4)
            // Places are not short (4 of 64), so only the versions bound sheds.
            #expect(try eventually(timeout: 15) { try stat(writer, "snapshots") == 2 }, "two unread copies closed")
            #expect(try stat(writer, "snapshot_old_versions") == 2)
            for old in stalled.prefix(2) { #expect(Self.closedByServer(old), "an older copy was kept") }
        }
    }

    /// Whether the server has closed `c`: reads what it was sent until the end (20 s at most).
    static func closedByServer(_ c: LineConnection) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            do { _ = try c.readLine(timeout: 1) } catch { return true }
        }
        return false
    }
}
