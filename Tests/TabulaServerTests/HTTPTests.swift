import Foundation
import Testing
@testable import TabulaServer
import TabulaStorage

/// The HTTP port over real sockets: health, pipelining, every refusal, slow and idle clients,
/// metrics that promtool accepts, readiness under a full store, the list of clients.
@Suite struct HTTPTests {
    static func withHTTP(
        _ configure: (inout ServerConfig) -> Void = { _ in }, store: StateStore = MemoryStore(),
        _ body: (Server, Int) throws -> Void
    ) throws {
        try withServer(
            {
                $0.httpPort = 0
                configure(&$0)
            }, store: store
        ) { s in try body(s, try #require(s.httpPort)) }
    }

    @Test func theHealthChecksAnswer200WhileServing() throws {
        try Self.withHTTP { _, port in
            let c = try HTTPTestClient(port: port)
            #expect(try c.get("/livez").status == 200)
            #expect(try c.get("/readyz").body == "ready\n")
            #expect(try c.get("/healthz").status == 200)
        }
    }

    @Test func pipelinedRequestsAreAnsweredInTheOrderSent() throws {
        try Self.withHTTP { _, port in
            let c = try HTTPTestClient(port: port)
            c.send(
                "GET /livez HTTP/1.1\r\nHost: localhost\r\n\r\nGET /api/ls?path=/items HTTP/1.1\r\nHost: localhost\r\n\r\nGET /nope HTTP/1.1\r\nHost: localhost\r\n\r\nGET /api/show?path=/items/99 HTTP/1.1\r\nHost: localhost\r\n\r\n"
            )
            let answers = try (0..<4).map { _ in try c.response() }
            #expect(answers.map(\.status) == [200, 200, 404, 404])
            #expect(answers[1].headers["content-type"] == "application/json")
            #expect(answers[1].body.contains("Rusty Spork"))
            #expect(answers[2].body.contains("no page /nope"))
            #expect(answers[3].body.contains(#""code":"NOTFOUND""#))
        }
    }

    @Test func thousandsOfRequestsPipelinedInFewReadsAreAllAnsweredInOrder() throws {
        try Self.withHTTP { _, port in
            let c = try HTTPTestClient(port: port)
            let n = 3_000
            c.send((0..<n).map { "GET /api/show?path=/items/\($0 % 2 == 0 ? 1 : 2) HTTP/1.1\r\n\r\n" }.joined())
            for i in 0..<n {
                let r = try c.response()
                #expect(r.body.contains(i % 2 == 0 ? "Rusty Spork" : "Fluffy Bear"), "answer \(i)")
            }
        }
    }

    @Test func aHeadRequestGetsTheHeadersAndNoBody() throws {
        try Self.withHTTP { _, port in
            let c = try HTTPTestClient(port: port)
            c.send("HEAD /items HTTP/1.1\r\nHost: localhost\r\n\r\nGET /livez HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let all = try c.waitFor("live\n")
            #expect(all.hasPrefix("HTTP/1.1 200 OK"))
            #expect(!all.contains("<html"))
        }
    }

    @Test(arguments: [
        ("HELLO\r\n\r\n", 400, "malformed request"),
        ("POST /metrics HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi", 405, "read with GET"),
        ("DELETE /items HTTP/1.1\r\n\r\n", 405, "writes are POST /api/VERB"),
        ("GET /\(String(repeating: "a", count: 9000)) HTTP/1.1\r\n\r\n", 414, "longer than 8192 bytes"),
        ("GET / HTTP/1.1\r\n" + (0...64).map { "X-\($0): 1\r\n" }.joined() + "\r\n", 431, "more than 64 headers"),
        ("GET / HTTP/1.1\r\nContent-Length: 100000000\r\n\r\n", 413, "a request body is at most 65536 bytes"),
        ("GET /api/ls HTTP/1.1\r\n\r\n", 400, "?path=/items"),
        ("GET /events?from=soon HTTP/1.1\r\n\r\n", 400, "must be a revision number"),
        ("GET /api/ls?path=/items&limit=10001 HTTP/1.1\r\n\r\n", 400, "from 1 to 10000"),
    ])
    func everyRefusalSaysWhatWasWrong(request: String, status: Int, says: String) throws {
        try Self.withHTTP { _, port in
            let c = try HTTPTestClient(port: port)
            c.send(request)
            let r = try c.response()
            #expect(r.status == status)
            #expect(r.body.contains(says), "\(r.body)")
        }
    }

    @Test func anH2cUpgradeIsAnsweredAsAPlainRequestAndTheConnectionCloses() throws {
        try Self.withHTTP { _, port in
            let c = try HTTPTestClient(port: port)
            c.send(
                "GET /livez HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n\r\n"
            )
            let r = try c.response()
            #expect(r.status == 200)
            #expect(r.headers["connection"] == "close")
            #expect(c.closesWithin(5))
        }
    }

    @Test func aMalformedRequestClosesTheConnectionAfterItsAnswer() throws {
        try Self.withHTTP { _, port in
            let c = try HTTPTestClient(port: port)
            c.send("GET / HTTP/1.1\r\nBad Header\r\n\r\n")
            #expect(try c.response().headers["connection"] == "close")
            #expect(c.closesWithin(5))
        }
    }

    @Test func aClientThatSendsHalfARequestIsAnswered408() throws {
        try Self.withHTTP({ $0.stallTimeout = 1 }) { _, port in
            let c = try HTTPTestClient(port: port)
            #expect(try c.get("/livez").status == 200)
            c.send("GET /livez HTTP/1.1\r\nHo")
            let r = try c.response(timeout: 10)
            #expect(r.status == 408)
            #expect(r.body.contains("no complete request"))
            #expect(c.closesWithin(5))
        }
    }

    @Test func anIdleKeptAliveConnectionIsClosedWithNothingSaid() throws {
        try Self.withHTTP({ $0.stallTimeout = 1 }) { _, port in
            let c = try HTTPTestClient(port: port)
            #expect(try c.get("/livez").status == 200)
            #expect(c.closesWithin(10))
        }
    }

    @Test func metricsAreInPrometheusFormatAndPassPromtool() throws {
        try Self.withHTTP { s, port in
            let t = try connect(s)
            _ = try t.request("ADD /items Lamp 30")
            _ = try t.request("WATCH /items")
            _ = try t.request("LS /nope")
            let r = try HTTPTestClient(port: port).get("/metrics")
            #expect(r.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
            for sample in [
                #"tabulad_commands_total{verb="ADD"} 1"#, #"tabulad_errors_total{code="NOTFOUND"} 1"#,
                #"tabulad_connections{transport="tcp"} 1"#, "tabulad_watchers 1",
                #"tabulad_list_entries{list="items"} 5"#, "tabulad_revision 1",
            ] {
                #expect(r.body.contains(sample + "\n"), "missing \(sample)")
            }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-\(UUID().uuidString).txt")
            try r.body.write(to: file, atomically: true, encoding: .utf8)
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", "promtool check metrics < '\(file.path)'"]
            let out = Pipe()
            p.standardOutput = out
            p.standardError = out
            try p.run()
            p.waitUntilExit()
            let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(p.terminationStatus == 0, "promtool: \(said)")
        }
    }

    @Test func readyzIs503WhileTheStoreIsFullAndReadyAgainOnceItTakesAWrite() throws {
        try Self.withHTTP(store: try SQLiteStore(path: tempDB(), maxBytes: 96 * 1024)) { s, port in
            let c = try connect(s)
            let h = try HTTPTestClient(port: port)
            // Orders first: clearing them later frees whole pages, which a write needs once the
            // store is full (one item's removal frees part of a page, and is rolled back).
            for _ in 0..<150 { #expect(try c.request("ORDER margherita").isOK) }
            let long = String(repeating: "y", count: 500)
            for i in 0..<1000 {
                guard try c.request("ADD /items \(long)\(i) 5").isOK else { break }
            }
            let refused = try h.get("/readyz")
            #expect(refused.status == 503)
            #expect(refused.body.contains("the store refused the last commit"), "\(refused.body)")
            // Space comes back: the first write the store takes makes it ready (writes are
            // refused untried for a second after a refused commit).
            let deadline = Date().addingTimeInterval(10)
            var cleared = try c.request("RM /orders")
            while cleared.reply.error?.code == .storage && Date() < deadline { cleared = try c.request("RM /orders") }
            #expect(cleared.isOK, "\(cleared.final)")
            #expect(try h.get("/readyz").status == 200)
        }
    }

    @Test func clientsListsEveryConnectionWithItsTransportAndWatches() throws {
        try Self.withHTTP { s, port in
            let t = try connect(s)
            _ = try t.request("WATCH /items")
            let h = try HTTPTestClient(port: port)
            var body = ""
            let deadline = Date().addingTimeInterval(10)
            // A connection is listed when it comes; its watches as of its loop's last second.
            while !body.contains(#""watches":1"#) && Date() < deadline { body = try h.get("/clients").body }
            #expect(body.contains(#""transport":"tcp","user":null"#))
            #expect(body.contains(#""watches":1"#))
            #expect(body.contains(#""transport":"http""#))
        }
    }

    /// `/clients` is made at most once a second per loop, and again when a connection comes
    /// or goes: a connection that just came is in the next page, however soon it is asked.
    @Test func aConnectionThatJustCameIsInTheNextClientsPage() throws {
        try withServer({
            $0.httpPort = 0; $0.ioThreads = 1
        }) { s in
            let h = try HTTPTestClient(port: try #require(s.httpPort))
            let before = try h.get("/clients").body
            let ids = before.components(separatedBy: #""id":"#).count - 1
            let came = try connect(s)
            let after = try h.get("/clients").body
            #expect(after.components(separatedBy: #""id":"#).count - 1 == ids + 1, "\(after)")
            withExtendedLifetime(came) {}
        }
    }

    @Test func theClientsVerbListsTheSameConnectionsAsText() throws {
        try Self.withHTTP { s, port in
            let t = try connect(s)
            _ = try t.request("WATCH /items")
            _ = try HTTPTestClient(port: port).get("/livez")
            var rows: [String] = []
            let deadline = Date().addingTimeInterval(10)
            while !(rows.contains { $0.contains("  tcp  user=-") && $0.contains("watches=1") }) && Date() < deadline {
                rows = try t.request("CLIENTS").data
            }
            #expect(rows.contains { $0.contains("  tcp  user=-") && $0.contains("watches=1") }, "\(rows)")
        }
    }
}

@Suite struct LogFormatTests {
    @Test func eachFormatWritesTheLevelTheConnectionAndTheMessage() {
        let t = "2026-12-01T10:00:00Z"
        #expect(
            Log.line(.info, "closing", conn: 257, format: .text, time: t) == "2026-12-01T10:00:00Z INFO [257] closing\n"
        )
        // A client's words quoted in a message cannot start a line of their own.
        #expect(
            Log.line(.info, "login as x\n2026-12-01T10:00:00Z ERROR forged\u{1b}[2J", conn: 1, format: .text, time: t)
                == "2026-12-01T10:00:00Z INFO [1] login as x\\n2026-12-01T10:00:00Z ERROR forged?[2J\n")
        #expect(
            Log.line(.warn, "say \"hi\"\n", conn: 257, format: .logfmt, time: t)
                == "time=2026-12-01T10:00:00Z level=warn conn=257 msg=\"say \\\"hi\\\"\\n\"\n")
        #expect(
            Log.line(.error, "disk full", conn: nil, format: .json, time: t)
                == "{\"time\":\"2026-12-01T10:00:00Z\",\"level\":\"error\",\"msg\":\"disk full\"}\n")
    }
}
