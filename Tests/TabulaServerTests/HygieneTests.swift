import Foundation
import Testing
import TabulaClient
import TabulaProtocol
import TabulaServer

/// Connection hygiene: a bounded number of connections per address, no connection holding a
/// slot without making progress, and incomplete input bounded for the whole server.
@Suite struct HygieneTests {
    /// Reads lines until the server closes; returns the last one (its goodbye).
    static func lastWords(_ c: LineConnection, timeout: Double = 10) throws -> String? {
        var last: String?
        let deadline = Date().addingTimeInterval(timeout)
        do {
            while Date() < deadline {
                if let l = try c.readLine(timeout: max(0, deadline.timeIntervalSinceNow)) { last = l }
            }
        } catch {
            return last
        }
        return "still open after \(timeout) s"
    }

    @Test func anAddressPastItsConnectionLimitIsToldSoAndOthersAreNotAffected() throws {
        try withServer({ $0.maxConnectionsPerAddress = 2 }) { s in
            let first = try connect(s), second = try connect(s)
            let third = try LineConnection(host: "127.0.0.1", port: s.port)
            #expect(
                try third.readLine(timeout: 5)
                    == "* BYE too many connections from your address (limit 2); close some first")
            #expect(try first.request("PING").isOK)
            #expect(try second.request("QUIT").isOK)
            #expect(eventually { (try? connect(s)) != nil })
        }
    }

    @Test func aConnectionThatSendsNothingIsClosedAfterTheStallTimeout() throws {
        try withServer({ $0.stallTimeout = 1 }) { s in
            let silent = try LineConnection(host: "127.0.0.1", port: s.port)
            #expect(try Self.lastWords(silent) == "* BYE no request in the first 1 s after connecting")
        }
    }

    @Test func anIncompleteLineIsClosedAfterTheStallTimeoutButAnIdleSessionIsNot() throws {
        try withServer({ $0.stallTimeout = 1 }) { s in
            let idle = try connect(s)
            #expect(try idle.request("PING").isOK)
            let slow = try rawConnect(s)
            try slow.sendRaw(Array("LS /ite".utf8))
            #expect(
                try Self.lastWords(slow) == "* BYE no complete request line in 1 s; end each request with a newline")
            // The slow one was closed after more than the timeout; the idle one, quiet for as
            // long, still answers.
            #expect(try idle.request("PING").final == "OK PONG")
        }
    }

    @Test func anIdleSessionWithoutWatchesIsClosedWithIdleTimeoutAndAWatcherIsNot() throws {
        try withServer({ $0.idleTimeout = 1 }) { s in
            let watcher = try connect(s)
            #expect(try watcher.request("WATCH /orders").isOK)
            let idle = try connect(s)
            #expect(try idle.request("PING").isOK)
            #expect(try Self.lastWords(idle.line) == "* BYE idle for 1 s (--idle-timeout); reconnect when needed")
            let writer = try connect(s)
            #expect(try writer.request("ORDER pesto").isOK)
            #expect(try watcher.waitPush(timeout: 5) { $0.contains("order") } != nil)
        }
    }

    @Test func incompleteInputIsBoundedForTheWholeServer() throws {
        try withServer({ $0.maxPartialInput = 65_536 }) { s in
            let a = try rawConnect(s), b = try rawConnect(s)
            try a.sendRaw(Array(("PING " + String(repeating: "a", count: 40_000)).utf8))
            let other = try connect(s)
            #expect(try other.request("PING").isOK)  // a's bytes are read and held by now
            try b.sendRaw(Array(("PING " + String(repeating: "b", count: 45_000)).utf8))  // the larger holder
            #expect(
                try Self.lastWords(b)?.hasPrefix(
                    "* BYE too much input held for all clients (limit 65536 bytes), this connection's 45005 the most")
                    == true)
            try a.sendRaw([10])
            #expect(try a.readLine(timeout: 5)?.hasPrefix("OK aaaa") == true)
        }
    }
}
