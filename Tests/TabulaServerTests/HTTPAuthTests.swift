import Foundation
import Testing
import TabulaAccess
@testable import TabulaServer

/// With `--users`, HTTP Basic with the same users and grants: nothing without a login but
/// what `--http-open` opens; a user's reads and streams show only what it may read.
@Suite struct HTTPAuthTests {
    static func basic(_ name: String) -> String {
        "Authorization: Basic " + Data("\(name):pw-\(name)".utf8).base64EncodedString()
    }

    static func withUsers(_ configure: (inout ServerConfig) -> Void = { _ in }, _ body: (Server, Int) throws -> Void)
        throws
    {
        try HTTPTests.withHTTP(
            {
                $0.users = AccessControlTests.users
                configure(&$0)
            }, body)
    }

    @Test func withoutALoginEveryPageIsRefused401WithABasicChallenge() throws {
        try Self.withUsers { _, port in
            let h = try HTTPTestClient(port: port)
            for path in ["/", "/api/ls?path=/items", "/events", "/metrics", "/readyz"] {
                let r = try h.get(path)
                #expect(r.status == 401, "\(path)")
                #expect(r.headers["www-authenticate"]?.hasPrefix("Basic realm=\"tabulad\"") == true)
            }
        }
    }

    @Test func aWrongSecretIs401AndTheRightOneServes() throws {
        try Self.withUsers { _, port in
            let h = try HTTPTestClient(port: port)
            let wrong = "Authorization: Basic " + Data("reader:nope".utf8).base64EncodedString()
            #expect(try h.get("/api/ls?path=/items", headers: [wrong]).status == 401)
            let ok = try HTTPTestClient(port: port).get("/api/ls?path=/items", headers: [Self.basic("reader")])
            #expect(ok.status == 200)
            #expect(ok.body.contains("Rusty Spork"))
        }
    }

    @Test func metricsAndHealthOpenedNeedNoLoginAndNothingElseIsOpened() throws {
        try Self.withUsers({ $0.httpOpen = [.metrics, .health] }) { _, port in
            let h = try HTTPTestClient(port: port)
            #expect(try h.get("/metrics").status == 200)
            #expect(try h.get("/readyz").status == 200)
            #expect(try h.get("/api/ls?path=/items").status == 401)
            #expect(try h.get("/clients").status == 401)
        }
    }

    /// A close the server chooses answers a request in progress with the status of its
    /// reason: 401 for a user the reload removed (408 before, whatever the reason).
    @Test func aRequestInProgressOfARemovedUserIsAnswered401() throws {
        try Self.withUsers { s, port in
            let h = try HTTPTestClient(port: port)
            #expect(try h.get("/api/ls?path=/orders", headers: [Self.basic("ops")]).status == 200)
            h.send("GET /api/ls?path=/orders HTTP/1.1\r\nHost: localhost\r\n")  // the rest never comes
            // Once the server holds it as incomplete input (its only client's):
            #expect(eventually { s.loops[0].stats.partialInput.load(ordering: .relaxed) > 0 })
            var next = AccessControlTests.users
            next["ops"] = nil
            #expect(s.reloadUsers(next))
            let r = try h.response()
            #expect(r.status == 401)
            #expect(r.body.contains("user ops was removed from the users file"), "\(r.body)")
            #expect(h.closesWithin(5))
        }
    }

    @Test func metricsAndClientsNeedAnAdmin() throws {
        try Self.withUsers { _, port in
            let h = try HTTPTestClient(port: port)
            #expect(try h.get("/metrics", headers: [Self.basic("reader")]).status == 403)
            #expect(try h.get("/clients", headers: [Self.basic("reader")]).status == 403)
            #expect(try h.get("/metrics", headers: [Self.basic("admin")]).status == 200)
        }
    }

    @Test func aRestrictedUsersReadsAndStreamShowOnlyWhatItsGrantsAllow() throws {
        try Self.withUsers { s, port in
            let h = try HTTPTestClient(port: port)
            #expect(try h.get("/api/ls?path=/settings", headers: [Self.basic("ci")]).status == 403)
            let items = try h.get("/api/ls?path=/items", headers: [Self.basic("ci")])
            #expect(items.body.contains("Rusty Spork"))
            #expect(!items.body.contains("Shiny Mac"))  // /items/3 is denied
            h.send("GET /events?prefix=/items HTTP/1.1\r\nHost: localhost\r\n\(Self.basic("ci"))\r\n\r\n")
            _ = try h.waitFor("watching /items")
            let admin = try AccessControlTests.login(s, "admin")
            _ = try admin.request("FAV /items/3")  // rev 1: denied to ci
            _ = try admin.request("FAV /items/1")  // rev 2: ci's
            let text = try h.waitFor("id: 2\n")
            #expect(HTTPStreamTests.ids(text) == [2])
        }
    }
}

/// Pipelined requests that carry a login: the first logs in, the rest are answered with it.
@Suite struct HTTPPipelinedLoginTests {
    @Test func twoPipelinedGetsWithAValidLoginInOneWriteAreBothAnsweredAndTheServerStaysUp() throws {
        try HTTPAuthTests.withUsers { s, port in
            let h = try HTTPTestClient(port: port)
            let get = "GET /api/ls?path=/items HTTP/1.1\r\nHost: localhost\r\n\(HTTPAuthTests.basic("reader"))\r\n\r\n"
            h.send(get + get + get)
            for _ in 0..<3 { #expect(try h.response().status == 200) }
            let other = try AccessControlTests.login(s, "reader")
            #expect(try other.request("PING").final == "OK PONG")
        }
    }
}
