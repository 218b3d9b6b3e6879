import Foundation
import Testing
import TabulaClient
import TabulaProtocol
@testable import TabulaServer

/// What a page of another site can make a browser send, over real sockets: a body that
/// crashed the parser, a link that wrote markup into a page, a rebound DNS name, and an
/// HTTP request to the line port. Each is refused and the server goes on.
@Suite struct HostileWebTests {
    @Test func aPostWhoseBodyHasALoneHighSurrogateIsRefusedAndTheServerLives() throws {
        try HTTPTests.withHTTP { s, port in
            let h = try HTTPTestClient(port: port)
            let body = #"{"args":["\uD800\u0041"]}"#
            h.send("POST /api/ping HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            let r = try h.response()
            #expect(r.status == 400)
            #expect(r.body.contains("not JSON"))
            #expect(try connect(s).request("PING").isOK)
        }
    }

    @Test func aPageLinkWithDotDotSegmentsIsSentToThePathTheyResolveTo() throws {
        try HTTPTests.withHTTP { _, port in
            // `%2F` is a slash once decoded: `</script>` is two segments, and two `..` undo them.
            let attack =
                "/catalog/%3C%2Fscript%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E"
                + String(repeating: "%2F..", count: 2)
            let r = try HTTPTestClient(port: port).get(attack)
            #expect(r.status == 308)
            #expect(r.headers["location"] == "/catalog")
            #expect(!r.body.contains("<img"))
            let deep = try HTTPTestClient(port: port).get("/catalog/%3Cb%3E%2F..%2F..%2F..%2F.." + "%2F%2Fitems%2F.%2F")
            #expect(deep.status == 308 && deep.headers["location"] == "/items/", "\(deep)")
        }
    }

    @Test func markupInAPagesPathOrReplyIsWrittenEscaped() {
        let path = "/catalog/</script><img src=x onerror=alert(1)>&\u{2028}\u{2029}"
        let r = WebAssets.view(
            role: "admin", path: path, reply: Array(#"{"ok":true,"data":["<!--","&amp;"]}"#.utf8)[...])
        let body = String(decoding: r.body, as: UTF8.self)
        let first = body.components(separatedBy: #"<script id="first" type="application/json">"#)[1].components(
            separatedBy: "</script>")[0]
        #expect(
            first
                == #"{"role":"admin","path":"/catalog/\u003c/script\u003e\u003cimg src=x onerror=alert(1)\u003e\u0026\u2028\u2029","reply":{"ok":true,"data":["\u003c!--","\u0026amp;"]}}"#
        )
        #expect(JSONParser.parse(first)?["path"]?.stringValue == path)
    }

    @Test func everyPageIsServedUnderAPolicyThatForbidsInlineScript() throws {
        try HTTPTests.withHTTP { _, port in
            let r = try HTTPTestClient(port: port).get("/items")
            let csp = try #require(r.headers["content-security-policy"])
            #expect(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"))
            #expect(r.headers["x-content-type-options"] == "nosniff")
        }
    }

    @Test(arguments: ["GET /api/ls?path=/items", "GET /items", "GET /events?prefix=/"])
    func aRequestNamingAnotherHostIsRefusedReadsIncluded(_ line: String) throws {
        try HTTPTests.withHTTP { _, port in
            let h = try HTTPTestClient(port: port)
            h.send("\(line) HTTP/1.1\r\nHost: evil.example:\(port)\r\n\r\n")
            let r = try h.response()
            #expect(r.status == 421)
            #expect(r.body.contains("--http-host evil.example"))
            #expect(!r.body.contains("Rusty Spork"))
        }
    }

    @Test func aRebindingPagesWriteIsRefusedAndChangesNothing() throws {
        try HTTPTests.withHTTP { s, port in
            let h = try HTTPTestClient(port: port)
            let body = #"{"args":["/items/1","on"]}"#
            h.send(
                "POST /api/fav HTTP/1.1\r\nHost: evil.example:\(port)\r\nOrigin: http://evil.example:\(port)\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            )
            #expect(try h.response().status == 421)
            #expect(try connect(s).request("SHOW /items/1").data.contains { $0.hasPrefix("favorite: no") })
        }
    }

    @Test(arguments: ["localhost", "LOCALHOST.", "app.localhost", "127.0.0.1", "[::1]", "10.1.2.3", "tabula.internal"])
    func aRequestNamingThisServerIsServed(_ host: String) throws {
        try HTTPTests.withHTTP({ $0.httpHosts = ["Tabula.Internal"] }) { _, port in
            let h = try HTTPTestClient(port: port)
            h.send("GET /api/show?path=/items/1 HTTP/1.1\r\nHost: \(host):\(port)\r\n\r\n")
            let r = try h.response()
            #expect(r.status == 200, "\(host): \(r.body)")
        }
    }

    @Test func anotherSitesPostIsRefusedBeforeItsBodyIsRead() throws {
        try HTTPTests.withHTTP { _, port in
            let h = try HTTPTestClient(port: port)
            let body = "not json at all"
            h.send(
                "POST /api/ping HTTP/1.1\r\nHost: localhost\r\nOrigin: http://evil.example\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            )
            let r = try h.response()
            #expect(r.status == 403, "\(r.body)")  // not 400: the body was never parsed
            #expect(r.body.contains("another site"))
        }
    }

    @Test func anHTTPRequestToTheLinePortIsClosedAndItsBodyNeverRuns() throws {
        try withServer { s in
            let c = try LineConnection(host: "127.0.0.1", port: s.port)
            try c.sendRaw(Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 19\r\n\r\nADD /items pwned 1\n".utf8))
            let lines = Self.linesUntilClosed(c)
            #expect(c.isClosed)
            #expect(lines.contains { $0.hasPrefix("* BYE") && $0.contains("not HTTP") }, "\(lines)")
            #expect(!lines.contains { $0.hasPrefix("ERR") || $0.hasPrefix("OK") }, "\(lines)")
            #expect(!(try connect(s).request("LS /items").data.contains { $0.contains("pwned") }))
        }
    }

    @Test(arguments: ["Host: 127.0.0.1", "post /x", "GET /index.html HTTP/1.0"])
    func anHTTPLineAfterRequestsClosesTheConnectionAndNothingAfterItRuns(_ http: String) throws {
        try withServer { s in
            let c = try rawConnect(s)
            try c.send("PING first")
            #expect(try c.readLine(timeout: 5)?.contains("first") == true)
            try c.sendRaw(Array("\(http)\nSELECT /settings/my-int #4\n".utf8))
            let lines = Self.linesUntilClosed(c)
            #expect(c.isClosed)
            #expect(lines.count == 1 && lines[0].hasPrefix("* BYE"), "\(lines)")
            #expect(!(try connect(s).request("SHOW /settings/my-int").data.contains("selected: 64 (#4)")))
        }
    }

    /// Every line the server sends until it closes (or 5 s pass with nothing).
    static func linesUntilClosed(_ c: LineConnection) -> [String] {
        var lines: [String] = []
        while true {
            do {
                guard let l = try c.readLine(timeout: 5) else { return lines }
                lines.append(l)
            } catch { return lines }
        }
    }
}
