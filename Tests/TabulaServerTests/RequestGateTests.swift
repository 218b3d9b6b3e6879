import Foundation
import Glibc
import Testing
import TabulaClient
import TabulaProtocol
import TabulaServer

/// The one gate (`RequestGate`, `ForeignProtocol`), each check run against every port that
/// takes requests, over real sockets: the line protocol, RESP on the shared port (chosen by
/// a first `*`), `--resp-port`, and the HTTP API where the check is about stored text.
@Suite struct RequestGateTests {
    /// A port that reads requests from a raw stream.
    enum StreamPort: String, CaseIterable, CustomTestStringConvertible {
        case line, respOnSharedPort, respPort
        var testDescription: String { rawValue }

        /// A raw socket to this port of `s`, with its codec chosen: RESP on the shared port
        /// by a first multibulk PING (answered, so that what follows is RESP's).
        func open(_ s: Server) throws -> RESPTestClient {
            switch self {
            case .line: return try RESPTestClient(port: s.port)
            case .respPort: return try RESPTestClient(port: try #require(s.respPort))
            case .respOnSharedPort:
                let c = try RESPTestClient(port: s.port)
                #expect(try c.call("PING") == .simple("PONG"))
                return c
            }
        }
    }

    static func withPorts(
        users: Bool = false, _ configure: (inout ServerConfig) -> Void = { _ in }, _ body: (Server) throws -> Void
    ) throws {
        try withServer(
            {
                $0.respPort = 0
                if users { $0.users = AccessControlTests.users }
                configure(&$0)
            }, body)
    }

    @Test(arguments: StreamPort.allCases)
    func anHTTPRequestClosesEveryNonHTTPPortAndItsBodyNeverRuns(_ port: StreamPort) throws {
        try Self.withPorts { s in
            let c = try port.open(s)
            let body = "ADD /items pwned 1\nSELECT /settings/my-int #3\n"
            c.sendRaw(
                Array(
                    "POST / HTTP/1.1\r\nHost: localhost:\(s.port)\r\nOrigin: http://localhost:9\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                        .utf8))
            #expect(c.closedByServer(), "the connection stays open after an HTTP request")
            let said = String(decoding: c.unread, as: UTF8.self)
            #expect(said.contains("not HTTP"), "\(said)")
            #expect(!said.contains("UNKNOWN"), "a header was read as a request: \(said)")
            let t = try connect(s)
            #expect(!(try t.request("LS /items").data.contains { $0.contains("pwned") }))
            #expect(try t.request("SHOW /settings/my-int").data.contains { $0.contains("selected: 16") })
        }
    }

    @Test(arguments: [StreamPort.respOnSharedPort, .respPort])
    func anInlineRequestOverTheElementBoundIsRefusedAndTheStreamClosed(_ port: StreamPort) throws {
        try Self.withPorts { s in
            let c = try port.open(s)
            let words = Array(repeating: "/", count: RequestGate.mostElements + 1).joined(separator: " ")
            c.sendRaw(Array("SUBSCRIBE \(words)\r\nPING\r\n".utf8))
            guard case .error(let e) = try c.read() else { Issue.record("the long SUBSCRIBE was answered"); return }
            #expect(e.contains("over the bound of \(RequestGate.mostElements)"), "\(e)")
            #expect(c.closedByServer())
            #expect(c.unread.isEmpty, "nothing after the refusal: \(String(decoding: c.unread, as: UTF8.self))")
        }
    }

    @Test(arguments: StreamPort.allCases)
    func aRequestOverThePreLoginBoundClosesEveryPortUnanswered(_ port: StreamPort) throws {
        try Self.withPorts(users: true) { s in
            let c = try port.open(s)
            let long = String(repeating: "x", count: RequestGate.preLoginElementBytes + 1)
            c.sendRaw(Array("PING \(long)\r\n".utf8))
            #expect(c.closedByServer(), "a \(long.utf8.count)-byte PING before a login was kept reading")
            let said = String(decoding: c.unread, as: UTF8.self)
            #expect(!said.contains(long), "the long PING was answered before a login")
            #expect(said.contains("before a login"), "\(said)")
        }
    }

    @Test(arguments: [StreamPort.respOnSharedPort, .respPort])
    func aRefusedLoginLeavesThePreLoginBoundInPlace(_ port: StreamPort) throws {
        try Self.withPorts(users: true) { s in
            let c = try port.open(s)
            guard case .error(let e) = try c.call("AUTH", "ci", "wrong") else { Issue.record("logged in"); return }
            #expect(e.hasPrefix("WRONGPASS"), "\(e)")
            let long = String(repeating: "x", count: RequestGate.preLoginElementBytes + 1)
            c.sendRaw(Array("PING \(long)\r\n".utf8))
            #expect(c.closedByServer(), "a long PING after a refused AUTH was kept reading")
            #expect(!String(decoding: c.unread, as: UTF8.self).contains(long), "answered before a login")
        }
    }

    @Test(arguments: StreamPort.allCases)
    func aRequestWithinThePreLoginBoundIsAnsweredBeforeALogin(_ port: StreamPort) throws {
        try Self.withPorts(users: true) { s in
            let c = try port.open(s)
            let word = String(repeating: "y", count: 1000)
            c.sendRaw(Array("PING \(word)\r\n".utf8))
            #expect(try c.waitFor(word), "a short PING before a login is answered")
        }
    }

    @Test func aRESPRequestAfterLineProtocolLinesEndsTheConnectionSayingWhy() throws {
        try Self.withPorts { s in
            let c = try StreamPort.line.open(s)
            c.sendRaw(Array("ADD /items Inline 1\r\n*2\r\n$4\r\nECHO\r\n$2\r\nhi\r\nADD /items After 2\r\n".utf8))
            #expect(c.closedByServer(), "redis-cli --pipe would wait for its ECHO")
            let said = String(decoding: c.unread, as: UTF8.self)
            #expect(said.contains("a RESP request (*N) cannot follow"), "\(said)")
            let listed = try connect(s).request("LS /items").data.joined()
            #expect(listed.contains("Inline") && !listed.contains("After"), "\(listed)")
        }
    }

    /// A write whose text holds ESC, sent the way each transport sends text.
    enum Transport: String, CaseIterable, CustomTestStringConvertible {
        case lineEscape, respMultibulk, httpJSON
        var testDescription: String { rawValue }
    }

    @Test(arguments: Transport.allCases)
    func aControlCharacterInStoredTextIsRefusedOnEveryTransport(_ transport: Transport) throws {
        try Self.withPorts({ $0.httpPort = 0 }) { s in
            let evil = "\u{1B}[2J\u{1B}[31mEVIL"
            switch transport {
            case .lineEscape:
                let r = try connect(s).request(#"ADD /items "\u001b[2JEVIL" 1"#)
                #expect(r.final.hasPrefix("ERR ENCODING"), "\(r.final)")
            case .respMultibulk:
                let r = try RESPTestClient(port: try #require(s.respPort))
                guard case .error(let e) = try r.call("ADD", "/items", evil, "1") else {
                    Issue.record("the name was taken")
                    return
                }
                #expect(e.hasPrefix("ENCODING"), "\(e)")
            case .httpJSON:
                let h = try HTTPTestClient(port: try #require(s.httpPort))
                let body = #"{"args": ["\u001b[2J\u001b[31mEVIL", "1"]}"#
                h.send(
                    "POST /api/add HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                )
                let response = try h.response()
                #expect(
                    response.status == 400 && response.body.contains("control character U+001B"),
                    "\(response.status) \(response.body)")
            }
            #expect(!(try connect(s).request("LS /items").data.contains { $0.contains("EVIL") }))
        }
    }

    @Test func tabsAndLineBreaksInStoredTextAreStillTaken() throws {
        try Self.withPorts { s in
            let r = try RESPTestClient(port: try #require(s.respPort))
            let reply = try r.call("ADD", "/items", "Two\tlines\nhere", "5")
            #expect(reply.description.hasPrefix("+/items/"), "\(reply)")
        }
    }
}

extension RESPTestClient {
    /// Whether `text` arrives within `timeout` (reading it into the buffer).
    func waitFor(_ text: String, timeout: Double = 10) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !String(decoding: unread, as: UTF8.self).contains(text) {
            guard fill(until: deadline) else { return false }
        }
        return true
    }
}
