import Foundation
import Testing
import TabulaClient
import TabulaServer
import TabulaStorage

func tempDB() -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tabula-srv-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent("t.sqlite").path
}

@Suite struct DurabilityTests {
    @Test func stateRevisionAndHistorySurviveARestart() throws {
        let path = tempDB()
        var lastSeen: UInt64 = 0
        try withServer(store: try SQLiteStore(path: path)) { s in
            let c = try connect(s)
            _ = try c.request("WATCH /items")
            _ = try c.request("ADD /items Lamp 30")
            _ = try c.waitPush(timeout: 5) { _ in true }
            lastSeen = c.lastRevision
            _ = try c.request("ADD /items Desk 80")
            _ = try c.request("SELECT /settings/my-int 8")
        }
        try withServer(store: try SQLiteStore(path: path)) { s in
            let c = try connect(s)
            #expect(c.hello.contains("rev=3"))
            #expect(try c.request("SHOW /items/6").data.contains("name: Desk"))
            #expect(try c.request("LS /settings").data.last == "my-int/  My Int: 8")
            #expect(try stat(c, "history_oldest") == 1)
            let r = try c.request("WATCH /items FROM \(lastSeen)")
            #expect(r.final == "OK watching /items at rev 3; replaying 1 event")
            #expect(
                try c.waitPush(timeout: 5) { _ in true }
                    == "* EVENT 2 add /items/6 6  Desk  $80  serial=\(serial(of: c, 6))")
        }
    }

    func serial(of c: TabulaConnection, _ id: Int) throws -> String {
        let d = try c.request("SHOW /items/\(id)").data.first { $0.hasPrefix("serial: ") } ?? ""
        return String(d.dropFirst(8))
    }

    @Test func aFullDiskFailsTheWriteWithStorageErrorAndReadsGoOn() throws {
        let path = tempDB()
        try withServer(store: try SQLiteStore(path: path, maxBytes: 96 * 1024)) { s in
            let c = try connect(s)
            let w = try connect(s)
            _ = try w.request("WATCH /items")
            let long = String(repeating: "y", count: 500)
            var failure: ServerReply?
            for i in 0..<1000 {
                let r = try c.request("ADD /items \(long)\(i) 5")
                if !r.isOK { failure = r; break }
            }
            let f = try #require(failure)
            #expect(f.final.hasPrefix("ERR STORAGE the change could not be saved (disk full"))
            let count = try stat(c, "items")
            let rev = try stat(c, "revision")
            #expect(try c.request("LS /items LIMIT 1").isOK)
            // A small write may still fit; if it does not, it fails the same way.
            let order = try c.request("ORDER pesto")
            #expect(order.isOK || order.final.hasPrefix("ERR STORAGE"), "\(order.final)")
            // No event was pushed for the failed write: the last event is the last good revision.
            let events = w.takePushes() + w.pollPushes()
            _ = try w.request("PING")
            let all = events + w.takePushes()
            #expect(
                all.compactMap { TabulaConnection.revision(of: $0) }.max() ?? 0 <= UInt64(rev + (order.isOK ? 1 : 0)))
            #expect(count == rev + 4)
        }
    }
}

@Suite struct ReconnectorTests {
    @Test func backOffDoublesUpToTheMaximumAndResets() {
        var r = Reconnector(initial: 0.1, maximum: 0.5)
        r.failed(); r.failed(); r.failed(); r.failed()
        #expect(r.delay == 0.5)
        r.reset()
        #expect(r.delay == 0.1)
    }

    @Test func resumingAfterAServerRestartRestoresTheSessionAndLosesNoEvent() throws {
        let path = tempDB()
        var config = ServerConfig()
        config.port = 0
        config.logLevel = .error
        let first = try Server(config: config, store: try SQLiteStore(path: path))
        first.start()
        let c = try TabulaConnection(host: "127.0.0.1", port: first.port, timeout: 30)
        var session = SessionTracker()
        for line in ["WATCH /orders", "CD /menu", "FILTER favorites"] {
            session.observe(request: line, reply: try c.request(line))
        }
        _ = try c.request("ORDER pesto")
        _ = try c.waitPush(timeout: 5) { _ in true }
        let seen = c.lastRevision
        first.stop()

        config.port = first.port
        let second = try Server(config: config, store: try SQLiteStore(path: path))
        second.start()
        defer { second.stop() }
        let other = try TabulaConnection(host: "127.0.0.1", port: second.port, timeout: 30)
        _ = try other.request("ORDER tiramisu")  // made while our client was away

        let resumed = try Reconnector.resume(
            host: "127.0.0.1", port: second.port, session: session, after: seen, historyID: c.historyID)
        let back = resumed.connection
        #expect(resumed.refused.isEmpty)
        #expect(!resumed.wasReset)
        #expect(back.historyID == c.historyID)
        #expect(try back.waitPush(timeout: 5) { $0.contains("Tiramisu") } != nil)
        #expect(try back.request("PWD").final == "OK /menu")
        #expect(try back.request("FILTER").final.hasPrefix("OK favorites"))
        _ = try other.request("ORDER gelato")
        #expect(try back.waitPush(timeout: 5) { $0.contains("Gelato") } != nil)
        #expect(back.takePushes().filter { $0.contains("Pesto") }.isEmpty)
    }
}
