import Testing
import TabulaModel
import TabulaProtocol

@testable import TabulaServer

/// A write run on an I/O loop gets the events for that loop's own watchers back to queue at
/// once while the loop's inbox is empty, and sends them through the inbox, behind what it
/// holds, otherwise (`OwnLoopEvents`, Publication.swift).
@Suite struct OwnLoopEventsTests {
    let writer = ConnectionID(loop: 0, serial: 1)

    /// A state with two loops and one watcher of `/items` on `loop`.
    func state(watcherOn loop: Int) -> (SharedState, ConnectionID) {
        let state = SharedState(model: SeedData.model(now: 1_700_000_000), historyCapacity: 10, historyID: "0")
        let stats = ServerStats()
        state.loops = [LoopHandle(index: 0, stats: stats), LoopHandle(index: 1, stats: stats)]
        let watcher = ConnectionID(loop: loop, serial: 2)
        state.hub.withLock { _ = $0.add(watcher, "/items", format: .text) }
        return (state, watcher)
    }

    /// Publishes one change to `/items/1` from `writer`, as a write run on loop 0 does.
    func publishOnLoop0(_ state: SharedState, own: inout OwnLoopEvents) {
        own.loop = 0
        state.writing(own: &own) { _ in
            var events: [Event?] = [Event(rev: 1, what: .fav, path: "/items/1", summary: "1  Rusty Mac", value: .null)]
            state.publish(&events, origins: [writer], stats: ServerStats())
        }
    }

    @Test func anEventForAWatcherOnTheWritersLoopComesBackWhenTheInboxIsEmpty() {
        let (state, watcher) = state(watcherOn: 0)
        var own = OwnLoopEvents()
        publishOnLoop0(state, own: &own)
        #expect(!own.inboxed)
        #expect(state.loops[0].inbox.count == 0, "nothing posted to the writer's own loop")
        guard own.sends.count == 1, case .send(let to, let bytes) = own.sends[0] else {
            Issue.record("expected one event handed back, got \(own.sends.count)")
            return
        }
        #expect(to == watcher)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("* EVENT 1 fav /items/1"))
    }

    @Test func anEventGoesBehindWhatTheWritersInboxAlreadyHolds() {
        let (state, _) = state(watcherOn: 0)
        state.loops[0].post([.usersReloaded])
        var own = OwnLoopEvents()
        publishOnLoop0(state, own: &own)
        #expect(own.inboxed, "the run's replies must wait for the drain")
        #expect(own.sends.isEmpty)
        let queued = state.loops[0].inbox.take()
        #expect(queued.count == 2)
        if case .send = queued.last {} else { Issue.record("the event is not behind what was queued before it") }
    }

    @Test func aWriteWithNothingForItsLoopStillWaitsForWhatItsInboxHolds() {
        // What the inbox holds may be an earlier event for the writer itself, which its OK
        // (and its own event, sent inline) must not overtake.
        let (state, _) = state(watcherOn: 1)
        state.loops[0].post([.send(writer, Array("* EVENT 0 fav /items/2 …\n".utf8))])
        var own = OwnLoopEvents()
        publishOnLoop0(state, own: &own)
        #expect(own.inboxed, "the run's replies must wait for the drain")
        #expect(own.sends.isEmpty)
    }

    @Test func anEventForAWatcherOnAnotherLoopIsPostedToThatLoop() {
        let (state, watcher) = state(watcherOn: 1)
        var own = OwnLoopEvents()
        publishOnLoop0(state, own: &own)
        #expect(own.sends.isEmpty && !own.inboxed)
        let queued = state.loops[1].inbox.take()
        guard queued.count == 1, case .send(let to, _) = queued[0] else {
            Issue.record("expected one event posted to loop 1, got \(queued.count)")
            return
        }
        #expect(to == watcher)
    }

    @Test func theEnginesHoldPostsEveryEventToTheLoopsInboxes() {
        let (state, _) = state(watcherOn: 0)
        state.writing { _ in
            var events: [Event?] = [Event(rev: 1, what: .fav, path: "/items/1", summary: "1  Rusty Mac", value: .null)]
            state.publish(&events, origins: [nil], stats: ServerStats())
        }
        #expect(state.loops[0].inbox.count == 1)
    }
}
