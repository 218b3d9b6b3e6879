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
}
