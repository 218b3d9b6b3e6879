import Foundation
import Testing
import TabulaClient
import TabulaProtocol
import TabulaServer

/// Hostile requests are answered, correctly, and another client is served while one runs.
/// No test times them (these took 10–25 s before their fixes; a few milliseconds now):
/// `Scripts/bench --attacks` measures what they cost, and the waits here only have deadlines.
@Suite struct AttackTests {
    /// Sends `line` on `attacker` without waiting, then a read on `other` that takes the
    /// state's lock (a PING takes none, and proves nothing about the lock the attacker's
    /// request holds), which must be answered; returns the attacker's reply.
    static func pingWhile(_ line: String, attacker: TabulaConnection, other: TabulaConnection) throws -> ServerReply {
        try attacker.line.send(line)
        #expect(try other.request("SHOW /settings/my-int", timeout: 60).isOK)
        return try attacker.readReply(timeout: 60)
    }

    @Test func aSettingWithNineThousandOptionsIsCheckedForDuplicatesInLinearTime() throws {
        try withServer { s in
            let a = try connect(s), b = try connect(s)
            let options = (0..<9_000).map(String.init).joined(separator: " ")
            let reply = try Self.pingWhile("ADD /settings big int \(options)", attacker: a, other: b)
            #expect(reply.isOK, "\(reply.final)")
            #expect(try a.request("ADD /settings/big 8999").reply.error?.code == .exists)
        }
    }

    @Test func aHugeMisspeltNameAmongTenThousandSiblingsGetsNoSuggestionAndCostsLittle() throws {
        try withServer { s in
            let a = try connect(s), b = try connect(s)
            #expect(try a.request("ADD /catalog wide").isOK)
            try a.line.send((0..<10_000).map { "ADD /catalog/wide n\($0)" }.joined(separator: "\n"))
            for _ in 0..<10_000 { _ = try a.readReply(timeout: 60) }
            let reply = try Self.pingWhile(
                "SHOW /catalog/wide/" + String(repeating: "x", count: 60_000), attacker: a, other: b)
            #expect(reply.reply.error?.code == .notFound)
            #expect(reply.reply.error?.message.contains("did you mean") == false)
            #expect(try a.request("SHOW /catalog/wide/n999").isOK)
            #expect(
                try a.request("SHOW /catalog/wide/n19x").reply.error?.message.contains(
                    "did you mean /catalog/wide/n19?") == true)
        }
    }

    /// Titles that make one name ("Twin", "Twin!", "Twin?"…): distinct titles, one slug.
    static func twinTitle(_ k: Int) -> String {
        var t = "Twin", n = k
        while n > 0 {
            t.append(Array("!?,;:*")[n % 6])
            n /= 6
        }
        return t
    }

    @Test func siblingsWhoseTitlesMakeOneNameGetTheirSuffixWithoutScanningEachOther() throws {
        try withServer { s in
            let a = try connect(s), b = try connect(s)
            #expect(try a.request("ADD /catalog same").isOK)
            try a.line.send(
                (0..<3_000).map { "ADD /catalog/same \(Quoting.quote(Self.twinTitle($0)))" }.joined(separator: "\n"))
            var last = ""
            for _ in 0..<3_000 { last = try a.readReply(timeout: 60).reply.message }
            #expect(last == "/catalog/same/twin-3000")
            let reply = try Self.pingWhile(
                "ADD /catalog/same \(Quoting.quote(Self.twinTitle(3_000)))", attacker: a, other: b)
            #expect(reply.reply.message == "/catalog/same/twin-3001")
            #expect(try a.request("ADD /catalog/same Twin").reply.error?.code == .exists, "one title, once")
        }
    }

    @Test func twentyThousandWatchedPrefixesCostAWriteOnlyThePrefixesOfItsPath() throws {
        try withServer { s in
            // 20 connections of 1,000 watches each (one may watch at most 1,024).
            let watchers = try (0..<20).map { _ in try connect(s) }
            let w = watchers[0], a = try connect(s), b = try connect(s)
            for (k, c) in watchers.enumerated() {
                try c.line.send((0..<1_000).map { "WATCH /items/\(k * 1_000 + $0 + 100)" }.joined(separator: "\n"))
            }
            for c in watchers { for _ in 0..<1_000 { #expect(try c.readReply(timeout: 60).isOK) } }
            let reply = try Self.pingWhile("ADD /items lamp 20", attacker: a, other: b)
            #expect(reply.reply.message.hasPrefix("/items/5 "))
            _ = try a.request("FAV /items/1")
            _ = try w.request("PING")
            #expect(w.takePushes().isEmpty, "nobody watches /items/5 or /items/1")
        }
    }

    @Test func removingABranchWithTenThousandChildrenCostsOneStepPerNode() throws {
        try withServer { s in
            let a = try connect(s), b = try connect(s)
            #expect(try a.request("ADD /catalog wide").isOK)
            try a.line.send((0..<10_000).map { "ADD /catalog/wide n\($0)" }.joined(separator: "\n"))
            for _ in 0..<10_000 { _ = try a.readReply(timeout: 60) }
            let reply = try Self.pingWhile("RM /catalog/wide", attacker: a, other: b)
            #expect(reply.reply.message == "removed /catalog/wide (10001 nodes)")
            #expect(try a.request("SHOW /catalog/wide").reply.error?.code == .notFound)
        }
    }
}
