import Foundation
import Testing
import TabulaClient
import TabulaProtocol
import TabulaStorage

@testable import TabulaServer

/// The greeting names the server's history; a client can tell a server that continues its
/// history from one that started over, and never resumes into a different one.
@Suite struct HistoryIdentityTests {
    @Test func aDatabaseFileKeepsItsHistoryIdAcrossRestartsAndANewFileGetsAnother() throws {
        let path = tempDB()
        let first = try SQLiteStore(path: path).historyID
        let again = try SQLiteStore(path: path).historyID
        let other = try SQLiteStore(path: tempDB()).historyID
        #expect(first.count == 16)
        #expect(first == again)
        #expect(first != other)
    }

    @Test func everyMemoryStoreStartsANewHistory() {
        #expect(MemoryStore().historyID != MemoryStore().historyID)
    }

    @Test func watchFromARevisionTheServerHasNotReachedIsRefused() throws {
        try withServer { s in
            let c = try connect(s)
            _ = try c.request("ORDER pesto")
            let r = try c.request("WATCH /orders FROM 5")
            #expect(r.reply.error?.code == .expired)
            #expect(r.reply.error?.message.contains("newer than this server's history, which is at 1") == true)
            #expect(r.reply.error?.message.contains(c.historyID) == true)
            #expect(try c.request("WATCH /orders FROM 1").isOK)
        }
    }

    @Test func reconnectingToARestartedMemoryServerSaysItWasResetAndWatchesFromNow() throws {
        var config = ServerConfig()
        config.port = 0
        config.logLevel = .error
        let first = try Server(config: config, store: MemoryStore())
        first.start()
        let c = try TabulaConnection(host: "127.0.0.1", port: first.port, timeout: 30)
        var session = SessionTracker()
        session.observe(request: "WATCH /orders", reply: try c.request("WATCH /orders"))
        for _ in 0..<5 { _ = try c.request("ORDER pesto") }
        while c.lastRevision < 5, try c.waitPush(timeout: 5, where: { _ in true }) != nil {}
        first.stop()

        config.port = first.port
        let second = try Server(config: config, store: MemoryStore())
        second.start()
        defer { second.stop() }
        let resumed = try Reconnector.resume(
            host: "127.0.0.1", port: second.port, session: session, after: c.lastRevision, historyID: c.historyID)
        #expect(resumed.wasReset)
        #expect(resumed.refused.isEmpty, "WATCH FROM 5 would have been refused: \(resumed.refused)")
        _ = try resumed.connection.request("ORDER gelato")
        let push = try resumed.connection.waitPush(timeout: 5) { _ in true }
        #expect(push?.hasPrefix("* EVENT 1 order /orders/1 ") == true)
    }

    @Test func watchFromZeroAfterARestartReplaysTheWholeStoredHistory() throws {
        let path = tempDB()
        try withServer(store: try SQLiteStore(path: path)) { s in
            let c = try connect(s)
            for _ in 0..<3 { #expect(try c.request("ORDER pesto").isOK) }
        }
        // A new server remembers nothing in memory: the replay must come from the file.
        try withServer(store: try SQLiteStore(path: path)) { s in
            let c = try connect(s)
            let r = try c.request("WATCH /orders FROM 0")
            #expect(r.final == "OK watching /orders at rev 3; replaying 3 events", "\(r.final)")
            _ = try c.request("PING")
            #expect(c.takePushes().compactMap { TabulaConnection.revision(of: $0) } == [1, 2, 3])
        }
    }
}
