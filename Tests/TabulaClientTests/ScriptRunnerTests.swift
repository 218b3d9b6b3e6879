import Foundation
import Testing
import TabulaCommandLine
import TabulaProtocol
import TabulaServer
import TabulaStorage

@testable import TabulaClient

/// Batch scripts against a real server on loopback: exit codes, meta-commands and pushes.
@Suite struct ScriptRunnerTests {
    static func withServer(_ body: (Server) throws -> Void) throws {
        var config = ServerConfig()
        config.port = 0
        config.logLevel = .error
        let s = try Server(config: config, store: MemoryStore())
        s.start()
        defer { s.stop() }
        try body(s)
    }

    static func run(
        _ script: String, on s: Server, onError: ScriptRunner.OnError = .stop, json: Bool = false,
        table: TableOutput? = nil, timeout: Double? = nil
    ) throws -> (code: TabulaCommandLine.ExitStatus, out: [String], err: [String]) {
        let c = try TabulaConnection(host: "127.0.0.1", port: s.port, timeout: 30)
        if json || table != nil { _ = try c.request("FORMAT json") }
        var out: [String] = []
        var err: [String] = []
        let runner = ScriptRunner(
            connection: c, onError: onError, json: json, timeout: timeout, table: table, out: { out.append($0) },
            err: { err.append($0) })
        let code = runner.run(script, source: "test.tabula")
        return (code, out, err)
    }

    @Test func aScriptThatSucceedsExitsZeroAndPrintsTheReplies() throws {
        try Self.withServer { s in
            let r = try Self.run("# a comment\nSELECT /settings/my-int 32\n\\expect My Int: 32\nPWD\n", on: s)
            #expect(r.code == TabulaCommandLine.ExitStatus.ok)
            #expect(r.out == ["- my-int/  My Int: 32", "OK My Int: 32 rev=1", "OK /"])
            #expect(r.err.isEmpty)
        }
    }

    @Test func anExpectedFailurePassesAndAnUnexpectedOneOrASuccessFails() throws {
        try Self.withServer { s in
            #expect(try Self.run("SHOW /nope\n\\expect-error NOTFOUND\nPING\n", on: s).code == .ok)
            #expect(try Self.run("SHOW /nope\n\\expect-error\n", on: s).code == .ok, "any code")
            let wrong = try Self.run("SHOW /nope\n\\expect-error SYNTAX\n", on: s)
            #expect(wrong.code == .script && wrong.err.first?.contains("failed otherwise") == true, "\(wrong.err)")
            #expect(try Self.run("PING\n\\expect-error\n", on: s).code == .script)
            let unexpected = try Self.run("SHOW /nope\nPING\n", on: s)
            #expect(
                unexpected.code == .script
                    && unexpected.err == ["test.tabula:1: ERR NOTFOUND no /nope; did you mean /menu?"]
                    || unexpected.err.first?.hasPrefix("test.tabula:1: ERR NOTFOUND") == true)
        }
    }

    @Test func expectMatchesTheReplyAsTheScriptPrintsItAndSaysWhichFormWhenItFails() throws {
        try Self.withServer { s in
            let csv = try Self.run("SHOW /items/1\n\\expect ^favorite,false$\n", on: s, table: .csv)
            #expect(csv.code == .ok, "a CSV record is matched: \(csv.err)")
            #expect(csv.out.first == "field,value" && csv.out.contains("favorite,false"), "\(csv.out)")
            let text = try Self.run("SHOW /items/1\n\\expect ^favorite,false$\n", on: s)
            #expect(text.code == .script, "in text the same reply prints favorite: no")
            let failed = try Self.run("SHOW /items/1\n\\expect favorite: no\n", on: s, table: .csv)
            #expect(failed.code == .script)
            #expect(
                failed.err.first?.contains("as --csv prints it (field,value | id,1 | name,Rusty Spork | …)") == true,
                "\(failed.err)")
            #expect(try Self.run("SHOW /items/1\n\\expect favorite: no\n", on: s).code == .ok, "in text it matches")
        }
    }

    @Test func hashStartsACommentUnlessItTagsARequestAndAMetaCommandMayEndInOne() throws {
        try Self.withServer { s in
            let r = try Self.run(
                "#comment\n#todo fix this\n#t1 PING\n\\echo hi # a note\n\\expect PONG # still the PING's reply\n",
                on: s)
            #expect(r.code == .ok, "\(r.err)")
            #expect(r.out == ["OK #t1 PONG", "hi"])
        }
    }

    @Test func withJSONAnErrorIsAnObjectOnStdoutAndEchoIsOneToo() throws {
        try Self.withServer { s in
            let r = try Self.run("SHOW /nope\n\\expect-error NOTFOUND\n\\echo done\n", on: s, json: true)
            #expect(r.code == .ok)
            #expect(r.out.count == 2 && r.out.allSatisfy { JSONParser.parse($0) != nil }, "\(r.out)")
            #expect(r.out.last == #"{"echo":"done"}"#)
        }
    }

    @Test func theTimeoutEndsAWaitThatNeverComesAndASyncGetsItsOwnWait() throws {
        try Self.withServer { s in
            let r = try Self.run("\\wait never-happens 30\n", on: s, timeout: 1)
            #expect(
                r.code == .script && r.err.contains { $0.contains("within the --timeout of 1 seconds") }, "\(r.err)")
            let c = try TabulaConnection(host: "127.0.0.1", port: s.port, timeout: 30)
            let runner = ScriptRunner(connection: c, onError: .stop, timeout: 2, out: { _ in }, err: { _ in })
            #expect(runner.requestTimeout("SYNC 99 TIMEOUT 20000") == 25 && runner.requestTimeout("PING") == 2)
        }
    }

    @Test func theFirstErrorStopsTheScriptWithExitThreeAndSaysWhere() throws {
        try Self.withServer { s in
            let r = try Self.run("PING\nSHOW /nope\nPING\n", on: s)
            #expect(r.code == TabulaCommandLine.ExitStatus.script)
            #expect(r.out == ["OK PONG"])
            #expect(r.err.first?.hasPrefix("test.tabula:2: ERR NOTFOUND") == true)
        }
    }

    @Test func onErrorContinueRunsEveryLineButStillFails() throws {
        try Self.withServer { s in
            let r = try Self.run("SHOW /nope\nPING\n", on: s, onError: .continue)
            #expect(r.code == TabulaCommandLine.ExitStatus.script)
            #expect(r.out.last == "OK PONG")
        }
    }

    @Test func waitSeesAPushFromAnotherClientAndExpectFailsOnAMismatch() throws {
        try Self.withServer { s in
            let other = try TabulaConnection(host: "127.0.0.1", port: s.port, timeout: 30)
            let c = try TabulaConnection(host: "127.0.0.1", port: s.port, timeout: 30)
            var out: [String] = []
            let runner = ScriptRunner(connection: c, onError: .stop, out: { out.append($0) }, err: { _ in })
            try runner.runLine("WATCH /orders")
            _ = try other.request("ORDER pesto")
            try runner.runLine("\\wait order.*Pesto 5")
            #expect(out.contains { $0.hasPrefix("* EVENT 1 order /orders/1") })
            #expect(runner.session.watches == ["/orders"])
            #expect(throws: (any Error).self) { try runner.runLine("\\expect nothing-like-this") }
        }
    }
}
