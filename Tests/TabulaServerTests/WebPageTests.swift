import Foundation
import Testing
import TabulaServer

/// The web view's page over real sockets: every path under a list has it (deep links), and
/// it carries its first read and the role it acts as, so its first paint needs no round trip
/// and a read-only user is offered no action; no title can end its script element.
@Suite struct WebPageTests {
    @Test(arguments: [
        "/", "/settings", "/settings/my-int", "/catalog/item-1/item-1.2", "/items/5", "/menu/pizza", "/orders",
    ])
    func everyPathUnderAListServesThePage(path: String) throws {
        try HTTPTests.withHTTP { _, port in
            let r = try HTTPTestClient(port: port).get(path)
            #expect(r.status == 200)
            #expect(r.headers["content-type"] == "text/html; charset=utf-8")
            #expect(r.body.contains(#"<script id="first""#))
        }
    }

    @Test func aPathOutsideTheListsIsNotAPage() throws {
        try HTTPTests.withHTTP { _, port in
            let r = try HTTPTestClient(port: port).get("/nope/settings")
            #expect(r.status == 404)
        }
    }

    @Test func thePageCarriesItsListsFirstReadAndItsRole() throws {
        try HTTPTests.withHTTP { _, port in
            let body = try HTTPTestClient(port: port).get("/items/2").body
            #expect(body.contains(#"{"role":"admin","path":"/items","reply":{"ok":true"#), "\(body.prefix(2000))")
            #expect(body.contains("Fluffy Bear"))
            let leaf = try HTTPTestClient(port: port).get("/catalog/item-1/item-1.2").body
            #expect(leaf.contains(#""path":"/catalog/item-1/item-1.2","reply""#))
        }
    }

    @Test func noTitleCanEndThePagesScriptElement() throws {
        try HTTPTests.withHTTP { s, port in
            let added = try connect(s).request(#"ADD /items "</script><script>alert(1)</script>" 3"#)
            #expect(added.isOK)
            let body = try HTTPTestClient(port: port).get("/items").body
            #expect(!body.contains("<script>alert"))
            #expect(body.contains(#"\u003c/script\u003e\u003cscript\u003ealert(1)\u003c/script\u003e"#))
        }
    }

    @Test func aReadOnlyUsersPageSaysItsRole() throws {
        try HTTPAuthTests.withUsers { _, port in
            let body = try HTTPTestClient(port: port).get("/settings", headers: [HTTPAuthTests.basic("reader")]).body
            #expect(body.contains(#"{"role":"read","path":"/settings""#))
        }
    }
}
