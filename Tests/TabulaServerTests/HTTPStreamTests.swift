import Foundation
import Testing
import TabulaServer
import TabulaStorage

/// `GET /events`: the same events as WATCH as Server-Sent Events, resumable without gap or
/// duplicate, a revision too old said as an EXPIRED reply.
@Suite struct HTTPStreamTests {
    /// The `id:` lines of an event stream's text, in order.
    static func ids(_ text: String) -> [UInt64] {
        HTTPTestClient.sseBody(text).components(separatedBy: "\n").compactMap {
            $0.hasPrefix("id: ") ? UInt64($0.dropFirst(4)) : nil
        }
    }

    @Test func anEventStreamCarriesEachChangeWithItsRevisionAsID() throws {
        try HTTPTests.withHTTP { s, port in
            let h = try HTTPTestClient(port: port)
            h.send("GET /events?prefix=/items HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let head = try h.waitFor("watching /items at rev 0")
            #expect(head.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream"))
            #expect(
                HTTPTestClient.sseBody(head).hasPrefix("retry: 2000\nevent: reply\ndata: "),
                "retry is in the reply's block: no block without data")
            let t = try connect(s)
            _ = try t.request("ADD /items Lamp 30")
            _ = try t.request("SELECT /settings/my-int 8")  // not under /items
            _ = try t.request("FAV /items/5")
            let text = try h.waitFor("id: 3\n")
            #expect(Self.ids(text) == [1, 3])
            #expect(text.contains(#"data: {"push":"event","rev":1,"kind":"add","path":"/items/5""#))
        }
    }

    @Test func anHTTP11StreamIsSentInChunksAndAGoodbyeEndsItWithTheLastChunk() throws {
        var config = ServerConfig()
        config.port = 0
        config.httpPort = 0
        config.logLevel = .error
        let s = try Server(config: config, store: MemoryStore())
        s.start()  // stopped below, once: the goodbye is what is tested
        let h = try HTTPTestClient(port: try #require(s.httpPort))
        h.send("GET /events?prefix=/orders HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let head = try h.waitFor("watching /orders")
        #expect(head.contains("Transfer-Encoding: chunked\r\n"))
        // Each piece a chunk: its size in hex, its bytes, CRLF (a block-reading client,
        // urllib3, then gets each event as it comes).
        #expect(head.contains("\r\n\r\nc\r\nretry: 2000\n\r\n"), "\(head)")
        _ = try connect(s).request("ORDER pesto")
        #expect(Self.ids(try h.waitFor("id: 1\n")) == [1])
        s.stop()
        let end = try h.waitFor("\r\n0\r\n\r\n")
        #expect(HTTPTestClient.sseBody(end).contains("event: bye\n"), "the goodbye is a chunk before the last")
        #expect(end.hasSuffix("\r\n0\r\n\r\n"))
    }

    @Test func anHTTP10StreamHasNoChunksItsBodyEndsWithTheConnection() throws {
        try HTTPTests.withHTTP { s, port in
            let h = try HTTPTestClient(port: port)
            h.send("GET /events?prefix=/orders HTTP/1.0\r\nHost: localhost\r\n\r\n")
            let head = try h.waitFor("watching /orders")
            #expect(!head.contains("Transfer-Encoding"))
            #expect(head.contains("\r\n\r\nretry: 2000\nevent: reply\n"))
            _ = try connect(s).request("ORDER pesto")
            #expect(Self.ids(try h.waitFor("id: 1\n")) == [1])
        }
    }

    @Test func aStreamResumedFromLastEventIDMissesNothingAndRepeatsNothing() throws {
        try HTTPTests.withHTTP { s, port in
            let t = try connect(s)
            let first = try HTTPTestClient(port: port)
            first.send("GET /events?prefix=/items HTTP/1.1\r\nHost: localhost\r\n\r\n")
            _ = try first.waitFor("watching /items")
            for i in 0..<3 { _ = try t.request("ADD /items Thing\(i) \(10 + i)") }
            let seen = Self.ids(try first.waitFor("id: 3\n"))
            #expect(seen == [1, 2, 3])
            close(first.fd)  // the browser lost its connection
            for i in 3..<6 { _ = try t.request("ADD /items Thing\(i) \(10 + i)") }
            let again = try HTTPTestClient(port: port)
            again.send("GET /events?prefix=/items&from=1 HTTP/1.1\r\nHost: localhost\r\nLast-Event-ID: 3\r\n\r\n")
            _ = try again.waitFor("replaying 3 events")
            _ = try t.request("ADD /items Thing6 16")
            let resumed = try again.waitFor("id: 7\n")
            // The replay's end is marked with its revision as id: a reconnect resumes from it.
            #expect(Self.ids(resumed) == [4, 5, 6, 6, 7])
            #expect(resumed.contains("id: 6\nevent: synced\ndata: {\"push\":\"synced\",\"rev\":6}\n"))
        }
    }

    @Test func aStreamWithSnapshotSendsTheRowsThenSyncedThenLiveEvents() throws {
        try HTTPTests.withHTTP { s, port in
            let t = try connect(s)
            _ = try t.request("ORDER pesto")
            let h = try HTTPTestClient(port: port)
            h.send("GET /events?prefix=/orders&snapshot=1 HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let head = try h.waitFor("event: synced\n")
            #expect(head.contains("sending a snapshot"))
            #expect(head.contains("event: row\ndata: {\"push\":\"row\",\"path\":\"/orders/1\""), "\(head)")
            #expect(head.contains("id: 1\nevent: synced\ndata: {\"push\":\"synced\",\"rev\":1}"))
            _ = try t.request("ORDER margherita")
            #expect(Self.ids(try h.waitFor("id: 2\n")).last == 2)
        }
    }

    @Test func aRevisionOlderThanTheHistoryIsAnExpiredReplyOnTheStream() throws {
        try HTTPTests.withHTTP({ $0.historyInMemory = 3 }) { s, port in
            let t = try connect(s)
            for i in 0..<8 { _ = try t.request("ADD /items Thing\(i) 5") }
            let h = try HTTPTestClient(port: port)
            h.send("GET /events?prefix=/items&from=1 HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let text = try h.waitFor("EXPIRED")
            #expect(text.contains("event: reply\ndata: {\"ok\":false,\"code\":\"EXPIRED\""))
        }
    }

    @Test(arguments: ["/events?prefix=/items&from=1", "/events?prefix=/nowhere"])
    func aRefusedStreamEndsAfterItsReplyWithTheLastChunk(_ target: String) throws {
        try HTTPTests.withHTTP({ $0.historyInMemory = 3 }) { s, port in
            let t = try connect(s)
            for i in 0..<8 { _ = try t.request("ADD /items Thing\(i) 5") }
            let h = try HTTPTestClient(port: port)
            h.send("GET \(target) HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(h.closesWithin(10), "a refused stream stays open and silent")
            let text = String(decoding: h.buffer, as: UTF8.self)
            #expect(text.contains("event: reply\ndata: {\"ok\":false"), "\(text)")
            #expect(text.hasSuffix("0\r\n\r\n"), "the chunked body ends: \(text)")
        }
    }

    @Test func aStreamThatDoesNotReadIsDroppedAtTheOutputLimit() throws {
        try HTTPTests.withHTTP({ $0.outputLimit = 64 * 1024 }) { s, port in
            let h = try HTTPTestClient(port: port)
            var size: Int32 = 4096
            setsockopt(h.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            h.send("GET /events?prefix=/ HTTP/1.1\r\nHost: localhost\r\n\r\n")
            _ = try h.waitFor("watching /")
            let t = try connect(s)
            let long = String(repeating: "z", count: 2000)
            var n = 0
            while try stat(t, "slow_consumers_dropped") == 0 && n < 5000 {
                _ = try t.request("ADD /items \(long)\(n) 5")
                n += 1
            }
            #expect(try stat(t, "slow_consumers_dropped") == 1)
        }
    }
}
