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

    static func run(_ script: String, on s: Server, onError: ScriptRunner.OnError = .stop) throws -> (code: TabulaCommandLine.ExitStatus, out: [String], err: [String]) {
        let c = try TabulaConnection(host: "127.0.0.1", port: s.port, timeout: 30)
        var out: [String] = []
        var err: [String] = []
        let runner = ScriptRunner(connection: c, onError: onError, out: { out.append($0) }, err: { err.append($0) })
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
