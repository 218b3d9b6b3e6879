import Foundation
import Glibc
import Testing
import TabulaClient
import TabulaProtocol
@testable import TabulaServer

/// One budget for the requests the server holds unrun: a request begun, requests held
/// behind a wait (a SYNC), and an open transaction's queue, all counted against
/// `--max-partial-input` for the whole server (the largest holder closed first), each
/// transaction bounded in bytes, and one left open closed at `--stall-timeout`.
@Suite struct InputBudgetTests {
    @Test func aTransactionLeftOpenIsClosedAtTheStallTimeoutAndNothingOfItRuns() throws {
        try withServer({ $0.stallTimeout = 1 }) { s in
            let c = try rawConnect(s)
            try c.send("MULTI")
            try c.send("ADD /items Forgotten 5")
            var lines: [String] = []
            while let l = try c.readLine(timeout: 10) {
                lines.append(l)
                if l.hasPrefix("* BYE") { break }
            }
            #expect(lines.last?.contains("transaction open for 1 s without EXEC") == true, "\(lines)")
            #expect(!(try connect(s).request("LS /items").data.contains { $0.contains("Forgotten") }))
        }
    }

    @Test func aTransactionPastItsByteBoundIsRefusedAndDiscardedAtExec() throws {
        try withServer { s in
            let c = try connect(s)
            #expect(try c.request("MULTI").isOK)
            let long = String(repeating: "n", count: 60_000)
            var refused: String?
            for k in 0..<TransactionQueue.most {
                let r = try c.request("ADD /items \(long)\(k) 5")
                if !r.isOK {
                    refused = r.final
                    break
                }
            }
            let why = try #require(refused, "128 requests of 60 KB each were queued")
            #expect(why.contains("at most \(TransactionQueue.mostBytes) bytes"), "\(why)")
            #expect(try c.request("EXEC").final.contains("discarded"))
            #expect(try c.request("PING").isOK)
        }
    }

    static let ping = "PING " + String(repeating: "p", count: 1000) + "\n"

    /// A connection whose SYNC waits, with PINGs held behind it and counted: one at a time
    /// until the count passes `floor` (the first may go with the SYNC to wait beside it,
    /// uncounted), then `more` at once.
    static func holder(_ s: Server, more: Int, over floor: Int, watcher: TabulaConnection) throws -> LineConnection {
        let c = try rawConnect(s)
        try c.send("SYNC 999999999 TIMEOUT 60000")
        let held = try eventually {
            try c.sendRaw(Array(ping.utf8))
            return try stat(watcher, "input_held_bytes") > floor
        }
        #expect(held, "no PING was held behind the SYNC")
        try c.sendRaw(Array(String(repeating: ping, count: more).utf8))
        return c
    }

    @Test func requestsHeldBehindASyncCountTowardTheServersBoundAndTheirHolderIsClosed() throws {
        try withServer({ $0.maxPartialInput = 256 * 1024 }) { s in
            let other = try connect(s)
            let holder = try Self.holder(s, more: 300, over: 0, watcher: other)
            var lines: [String] = []
            while let l = try holder.readLine(timeout: 10) {
                lines.append(l)
                if l.hasPrefix("* BYE") { break }
            }
            #expect(lines.last?.contains("too much input held for all clients") == true, "\(lines.suffix(2))")
            #expect(try other.request("PING").isOK)
            #expect(
                try eventually { try stat(other, "input_held_bytes") == 0 }, "the closed holder's input left the count")
        }
    }

    @Test func requestsSentWithTheSyncInOneWriteAreCountedToo() throws {
        try withServer { s in
            let watcher = try connect(s)
            let holder = try rawConnect(s)
            try holder.sendRaw(Array(("SYNC 999999999 TIMEOUT 3000\n" + String(repeating: Self.ping, count: 50)).utf8))
            #expect(try eventually { try stat(watcher, "input_held_bytes") >= 50 * 1006 }, "what went with the SYNC")
            #expect(try holder.readLine(timeout: 10)?.hasPrefix("ERR TIMEOUT") == true, "the SYNC's own timeout")
            #expect(try eventually { try stat(watcher, "input_held_bytes") == 0 }, "answered: no longer held")
        }
    }

    @Test func requestsThatWentOnToTheEngineAfterWaitingStayCounted() throws {
        try withServer { s in
            let watcher = try connect(s)
            let holder = try rawConnect(s)
            try holder.send("SYNC 999999999 TIMEOUT 1000")
            // Held behind the first SYNC; when it times out, the second goes to the engine
            // with the PINGs after it, and waits there 4 s: still held input.
            try holder.sendRaw(
                Array(("SYNC 999999999 TIMEOUT 4000\n" + String(repeating: Self.ping, count: 300)).utf8))
            #expect(try holder.readLine(timeout: 10)?.hasPrefix("ERR TIMEOUT") == true, "the first SYNC's timeout")
            #expect(try stat(watcher, "input_held_bytes") >= 250 * 1006, "the second group at the engine is uncounted")
            #expect(try holder.readLine(timeout: 10)?.hasPrefix("ERR TIMEOUT") == true, "the second SYNC's timeout")
            #expect(try eventually { try stat(watcher, "input_held_bytes") == 0 })
        }
    }

    @Test func theLargestHolderIsClosedNotTheConnectionThatPassedTheBound() throws {
        try withServer({
            $0.maxPartialInput = 256 * 1024
            $0.ioThreads = 1  // both on one loop: the loop sheds its own largest first
        }) { s in
            let watcher = try connect(s)
            let big = try Self.holder(s, more: 200, over: 0, watcher: watcher)
            #expect(try eventually { try stat(watcher, "input_held_bytes") >= 200 * 1006 })
            let small = try Self.holder(s, more: 60, over: 201 * 1006, watcher: watcher)  // passes the bound
            var lines: [String] = []
            while let l = try big.readLine(timeout: 10) {
                lines.append(l)
                if l.hasPrefix("* BYE") { break }
            }
            #expect(lines.last?.contains("the most") == true, "the largest holder was not closed: \(lines.suffix(1))")
            #expect(try eventually { try stat(watcher, "input_held_bytes") < 100_000 })
            try small.send("PING after")
            #expect(!small.isClosed, "the small holder was closed")
        }
    }
}
