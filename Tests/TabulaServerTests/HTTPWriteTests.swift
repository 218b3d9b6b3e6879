import Foundation
import Testing
import TabulaServer

/// `POST /api/VERB` over real sockets: the words after the verb go through the one request
/// builder and pipeline (grants, IF REV, limits), the reply is the body with the status its
/// code says, and a write is refused from another site's page, without a login, from a
/// read-only user, and (without users) from another machine unless opened.
@Suite struct HTTPWriteTests {
    @Test func aPostedVerbRunsAndItsReplyIsTheBody() throws {
        try HTTPTests.withHTTP { s, port in
            let r = try HTTPTestClient(port: port).post("select", ["/settings/my-int", "#3"])
            #expect(r.status == 200)
            #expect(r.headers["content-type"] == "application/json")
            #expect(r.body.contains(#""message":"My Int: 32""#), "\(r.body)")
            let shown = try connect(s).request("SHOW /settings/my-int")
            #expect(shown.reply.message == "My Int: 32")
        }
    }

    @Test func aPostOnAStaleRevisionIsRefused409AndChangesNothing() throws {
        try HTTPTests.withHTTP { s, port in
            let h = try HTTPTestClient(port: port)
            let first = try h.post("set", ["/items/1", "value=70"])
            #expect(first.status == 200, "\(first.body)")
            let stale = try h.post("set", ["/items/1", "value=90", "IF", "REV", "0"])
            #expect(stale.status == 409)
            #expect(stale.body.contains(#""code":"CONFLICT""#), "\(stale.body)")
            let shown = try connect(s).request("SHOW /items/1").data
            #expect(shown.contains { $0.contains("70") }, "\(shown)")
        }
    }

    @Test func aPostFromAnotherSitesPageIsRefused403AndChangesNothing() throws {
        try HTTPTests.withHTTP { s, port in
            let h = try HTTPTestClient(port: port)
            let r = try h.post("fav", ["/items/1", "on"], headers: ["Origin: http://evil.example"])
            #expect(r.status == 403)
            #expect(r.body.contains(#""code":"NOPERM""#) && r.body.contains("another site"), "\(r.body)")
            let fetched = try h.post("fav", ["/items/1", "on"], headers: ["Sec-Fetch-Site: cross-site"])
            #expect(fetched.status == 403)
            let shown = try connect(s).request("SHOW /items/1").data
            #expect(shown.contains { $0.contains("favorite: no") }, "\(shown)")
        }
    }

    @Test func aPostFromTheServersOwnPageIsTaken() throws {
        try HTTPTests.withHTTP { _, port in
            let r = try HTTPTestClient(port: port).post(
                "fav", ["/items/1", "on"], headers: ["Origin: http://localhost", "Sec-Fetch-Site: same-origin"])
            #expect(r.status == 200, "\(r.body)")
        }
    }

    @Test(arguments: ["cd", "filter", "format", "watch", "auth", "quit"])
    func aVerbThatChangesOnlyTheConnectionIsRefused(verb: String) throws {
        try HTTPTests.withHTTP { _, port in
            let r = try HTTPTestClient(port: port).post(verb, [])
            #expect(r.status == 400)
            #expect(r.body.contains("each HTTP request stands alone"), "\(r.body)")
        }
    }

    @Test(arguments: [
        ("fav", #"{"args": "/items/1"}"#, "args is not an array"),
        ("fav", "not json", "the body is not JSON"),
        ("fav", #"{"args": [true]}"#, "every arg is a string"),
        ("nope", "{}", "no verb NOPE"),
        ("select", #"{"args": ["/settings/my-int"]}"#, "SELECT"),
    ])
    func aBadPostSaysWhatWasWrongAsJSON(verb: String, body: String, says: String) throws {
        try HTTPTests.withHTTP { _, port in
            let h = try HTTPTestClient(port: port)
            h.send("POST /api/\(verb) HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            let r = try h.response()
            #expect((400...404).contains(r.status))
            #expect(r.body.hasPrefix(#"{"ok":false"#) && r.body.contains(says), "\(r.body)")
            let next = try h.get("/livez")
            #expect(next.status == 200)  // the connection goes on
        }
    }

    @Test func withUsersAWriteWithoutALoginIsRefused401() throws {
        try HTTPAuthTests.withUsers { _, port in
            let r = try HTTPTestClient(port: port).post("fav", ["/items/1"])
            #expect(r.status == 401)
            #expect(r.headers["www-authenticate"] != nil)
        }
    }

    @Test func aReadOnlyUsersWriteIsRefused403AndAWritersIsTaken() throws {
        try HTTPAuthTests.withUsers { _, port in
            let reader = try HTTPTestClient(port: port).post(
                "fav", ["/items/1"], headers: [HTTPAuthTests.basic("reader")])
            #expect(reader.status == 403)
            #expect(reader.body.contains(#""code":"NOPERM""#), "\(reader.body)")
            let writer = try HTTPTestClient(port: port).post(
                "fav", ["/items/1"], headers: [HTTPAuthTests.basic("writer")])
            #expect(writer.status == 200, "\(writer.body)")
        }
    }

    @Test func aWriteOutsideAUsersGrantsIsRefused() throws {
        try HTTPAuthTests.withUsers { _, port in
            let r = try HTTPTestClient(port: port).post(
                "select", ["/settings/my-int", "#1"], headers: [HTTPAuthTests.basic("ci")])
            #expect(r.status == 403 || r.status == 404, "\(r.status) \(r.body)")
            #expect(r.body.contains(#""ok":false"#))
        }
    }

    /// The other machine is this one's own non-loopback address (skipped where it has none).
    @Test func withoutUsersAWriteFromAnotherMachineIsRefusedUnlessOpened() throws {
        guard let address = Self.nonLoopbackAddress() else { return }
        try HTTPTests.withHTTP({ $0.bind = "0.0.0.0" }) { _, port in
            let h = try HTTPTestClient(port: port, host: address)
            let refused = try h.post("fav", ["/items/1"])
            #expect(refused.status == 403)
            #expect(refused.body.contains("--http-open writes"), "\(refused.body)")
            let read = try h.post("show", ["/items/1"])
            #expect(read.status == 200)  // reads are taken
        }
        try HTTPTests.withHTTP({
            $0.bind = "0.0.0.0"; $0.httpOpen = [.writes]
        }) { _, port in
            let taken = try HTTPTestClient(port: port, host: address).post("fav", ["/items/1"])
            #expect(taken.status == 200)
        }
    }

    /// This machine's first IPv4 address that is not loopback, if any.
    static func nonLoopbackAddress() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(list) }
        for p in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let a = p.pointee.ifa_addr, a.pointee.sa_family == sa_family_t(AF_INET) else { continue }
            let addr = a.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            guard UInt32(bigEndian: addr.s_addr) >> 24 != 127 else { continue }
            var buf = [CChar](repeating: 0, count: 32)
            var copy = addr
            inet_ntop(AF_INET, &copy, &buf, 32)
            return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return nil
    }
}
