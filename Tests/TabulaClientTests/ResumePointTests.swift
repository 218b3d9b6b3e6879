import Testing
import TabulaProtocol

@testable import TabulaClient

/// Where watches resume: never past an event still to come.
@Suite struct ResumePointTests {
    @Test func aWatchWithoutFromResumesFromItsHeadAndEventsMoveItOn() {
        var r = ResumePoint()
        r.watched(WatchAck(prefix: "/", rev: 7), from: nil)
        #expect(r.revision == 7)
        r.event(9)
        #expect(r.revision == 9)
    }

    @Test func duringAReplayTheResumePointIsItsLastEventNotTheHead() {
        var r = ResumePoint()
        r.event(100)  // a live watch of /orders saw 100
        r.watched(WatchAck(prefix: "/items", rev: 120, replaying: 3), from: 50)
        #expect(r.revision == 50)  // before the first replayed event: its FROM
        r.event(60)
        #expect(r.revision == 60)
        r.event(70)
        #expect(r.revision == 70)
        r.event(80)  // the last: the replay is done, and everything to its head was sent
        #expect(r.revision == 120)
        r.event(121)
        #expect(r.revision == 121)
    }

    @Test func pipelinedReplaysFinishOneAfterTheOther() {
        var r = ResumePoint()
        r.resume(from: 9)  // carried on from an earlier connection
        r.watched(WatchAck(prefix: "/a", rev: 30, replaying: 1), from: 10)
        r.watched(WatchAck(prefix: "/b", rev: 30, replaying: 2), from: 5)
        #expect(r.revision == 5)
        r.event(12)  // /a's
        #expect(r.revision == 5)
        r.event(6)
        r.event(8)  // /b's last
        #expect(r.revision == 30)
    }

    @Test func aSyncedMarkerAfterAReplayMovesThePointOnlyWhenNoLaterReplayRuns() {
        var r = ResumePoint()
        r.watched(WatchAck(prefix: "/a", rev: 30, replaying: 1), from: 10)
        r.event(12)
        r.synced(30)
        #expect(r.revision == 30)
        r.watched(WatchAck(prefix: "/b", rev: 40, replaying: 2), from: 5)
        r.event(6)
        r.synced(99)  // not /b's: its replay still runs
        #expect(r.revision == 6)
    }

    @Test func anEmptyReplayIsAtItsHeadAtOnce() {
        var r = ResumePoint()
        r.watched(WatchAck(prefix: "/a", rev: 30, replaying: 0), from: 10)
        #expect(r.revision == 30)
    }
}

/// A replay the history overtook goes on as a snapshot (`* SNAPSHOT`): the point stays where
/// the replay stopped until the snapshot's `SYNCED`, whatever events come meanwhile.
@Suite struct OvertakenResumePointTests {
    @Test func aReplayThatGoesOnAsASnapshotResumesFromWhereItStoppedUntilTheSnapshotsSynced() {
        var r = ResumePoint()
        r.watched(WatchAck(prefix: "/items", rev: 120, replaying: 50), from: 10)
        r.event(11)
        r.event(12)
        r.overtaken()
        r.event(125)  // the old watch's, held by the rows
        #expect(r.revision == 12)
        r.synced(130)
        #expect(r.revision == 130)
        r.event(131)
        #expect(r.revision == 131)
    }
}
