import Foundation
import Testing
import TabulaClient
import TabulaServer
import TabulaStorage

/// A commit that fails rolls the whole batch back: its writes are refused with ERR STORAGE,
/// no event goes out, the state is the stored one, and the rest of each group is answered
/// again from it with the session the group started with and what it made of it.
@Suite struct EngineRollbackTests {
    @Test func aFailedCommitRefusesTheWritesAndAnswersTheRestOfTheGroupFromTheStoredState() throws {
        try withServer(store: try SQLiteStore(path: tempDB(), maxBytes: 96 * 1024)) { s in
            let c = try connect(s)
            let w = try connect(s)
            #expect(try w.request("WATCH /").isOK)
            let long = String(repeating: "z", count: 600)
            var i = 0
            while try c.request("ADD /items \(long)\(i) 5").isOK { i += 1 }  // until the disk is full
            let items = try stat(c, "items")
            let revision = try stat(c, "revision")
            _ = try w.request("PING")
            _ = w.takePushes()
            // One line batch: the write takes the whole group to the engine.
            try c.line.send("ADD /items \(long)x 5\nCD /menu\nPWD\nLS /items LIMIT 1")
            let replies = try (0..<4).map { _ in try c.readReply() }
            #expect(replies[0].reply.error?.code == .storage)
            #expect(replies[1].final == "OK /menu")
            #expect(replies[2].final == "OK /menu")
            #expect(replies[3].isOK)
            #expect(try stat(c, "items") == items)
            #expect(try stat(c, "revision") == revision)
            _ = try w.request("PING")
            #expect(w.takePushes().isEmpty, "an event went out for a change that was rolled back")
            #expect(try c.request("PWD").final == "OK /menu", "the session the group ended with is the loop's")
        }
    }

    @Test func whenTheStoredStateCannotBeReadBackNothingIsAnsweredFromTheRefusedChange() throws {
        let store = BrokenStore(try SQLiteStore(path: tempDB()))
        try withServer(store: store) { s in
            let c = try connect(s), r = try connect(s)
            #expect(try c.request("ADD /items Kept 5").isOK)
            store.failCommits.store(true, ordering: .releasing)
            store.failLoads.store(true, ordering: .releasing)
            #expect(try c.request("ADD /items Refused 6").reply.error?.code == .storage)
            let read = try r.request("LS /items")
            #expect(!read.data.contains { $0.contains("Refused") }, "a read showed a change the store refused: \(read.data)")
            #expect(read.reply.error?.code == .storage, "\(read.final)")
            #expect(try r.request("PING").final == "OK PONG")  // the connection itself is answered
            store.failCommits.store(false, ordering: .releasing)
            store.failLoads.store(false, ordering: .releasing)
            let again = try r.request("LS /items")
            #expect(again.isOK, "\(again.final)")
            #expect(again.data.contains { $0.contains("Kept") } && !again.data.contains { $0.contains("Refused") }, "\(again.data)")
            #expect(try c.request("ADD /items Later 7").isOK)
        }
    }

    @Test func whileTheStoreRefusesCommitsTheWholeStateIsReloadedAtMostOnceASecond() throws {
        let store = BrokenStore(try SQLiteStore(path: tempDB()))
        try withServer(store: store) { s in
            let c = try connect(s), r = try connect(s)
            #expect(try c.request("ADD /items Kept 5").isOK)
            let before = store.loads.load(ordering: .relaxed)
            store.failCommits.store(true, ordering: .releasing)
            let start = Date()
            for i in 0..<40 {
                let refused = try c.request("ADD /items Refused\(i) 6")
                #expect(refused.reply.error?.code == .storage, "\(refused.final)")
            }
            let seconds = Date().timeIntervalSince(start)
            let reloads = store.loads.load(ordering: .relaxed) - before
            #expect(reloads >= 1 && Double(reloads) <= seconds.rounded(.up) + 1, "\(reloads) reloads of the whole store in \(seconds) s for 40 refused writes")
            let read = try r.request("LS /items")
            #expect(read.isOK && !read.data.contains { $0.contains("Refused") }, "reads go on from the stored state: \(read.final)")
            store.failCommits.store(false, ordering: .releasing)
            let deadline = Date().addingTimeInterval(10)
            var taken = try c.request("ADD /items Later 7")
            while !taken.isOK && Date() < deadline { taken = try c.request("ADD /items Later 7") }
            #expect(taken.isOK, "writes are taken again once the store takes a commit: \(taken.final)")
        }
    }
}
