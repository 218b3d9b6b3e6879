import Foundation
import Testing
import TabulaClient
@testable import TabulaServer

/// A goodbye the server sends is the last thing on the stream: replies of requests that ran
/// before it come first, and nothing runs or is answered after it.
@Suite struct GoodbyeLastTests {
    /// Every line until the server closes (or nothing comes for 10 s).
    static func toTheEnd(_ c: TabulaConnection) -> [String] {
        var lines: [String] = []
        while true {
            do {
                guard let l = try c.line.readLine(timeout: 10) else { return lines }
                lines.append(l)
            } catch {
                if !c.line.isClosed { lines.append("(read failed: \(error))") }
                return lines
            }
        }
    }

    @Test(arguments: 0..<3)
    func nothingFollowsTheGoodbyeOfAUserRemovedWhileItsWritesRun(round: Int) throws {
        try AccessControlTests.withUsers { s in
            let ops = try AccessControlTests.login(s, "writer")
            let n = 5_000
            try ops.line.send(Array(repeating: "ORDER margherita", count: n).joined(separator: "\n"))
            #expect(try ops.readReply(timeout: 30).isOK)  // its writes are running
            var next = AccessControlTests.users
            next["writer"] = nil
            #expect(s.reloadUsers(next))
            let lines = Self.toTheEnd(ops)
            let bye = try #require(
                lines.firstIndex { $0.hasPrefix("* BYE") },
                "no goodbye in \(lines.count) lines, the last \(lines.suffix(2))")
            #expect(lines[bye] == "* BYE user writer was removed from the users file")
            #expect(
                bye == lines.count - 1,
                "\(lines.count - 1 - bye) lines after the goodbye, the first \(lines[min(bye + 1, lines.count - 1)])")
            // What was answered ran, and nothing else did: the orders counted are the OKs.
            let oks = 1 + lines[..<bye].filter { $0.hasPrefix("OK order ") }.count
            let admin = try AccessControlTests.login(s, "admin")
            let count = try admin.request("LS /orders LIMIT 1").final
            #expect(count.contains("of \(oks)"), "\(oks) OKs, \(count)")
        }
    }

    /// QUIT makes the connection closing: what it pipelined after QUIT, writes that publish
    /// and reads alike, never runs, on a store whose writes run on the loop or on the engine.
    @Test(arguments: ["memory", "sqlite"])
    func nothingRunsForAConnectionAfterItsQuit(store: String) throws {
        try withServer(store: try makeStore(store)) { s in
            let c = try connect(s)
            let before = try c.request("LS /orders LIMIT 1").final
            try c.line.send("ORDER margherita\nQUIT\nORDER margherita\nLS /orders\nORDER margherita")
            let lines = Self.toTheEnd(c)
            #expect(lines.filter { $0.hasPrefix("OK") }.count == 2, "\(lines)")
            #expect(lines.last?.hasPrefix("OK bye") == true, "\(lines)")
            let after = try connect(s).request("LS /orders LIMIT 1").final
            // "OK n of total": the total is the orders there are.
            let total = { (line: String) in Int(line.split(separator: " ").last ?? "") ?? -1 }
            #expect(total(before) >= 0 && total(after) == total(before) + 1, "\(before) → \(after)")
        }
    }
}
