import Foundation
import Testing
import TabulaServer

/// HTTP/1.0's keep-alive, over a real socket: confirmed in words, as such clients (ab -k)
/// wait for the close otherwise; without it, the connection closes after the response.
@Suite struct HTTPKeepAliveTests {
    @Test func anHTTP10KeepAliveRequestIsAnsweredKeepAliveAndTheConnectionStaysOpen() throws {
        try HTTPTests.withHTTP { _, port in
            let h = try HTTPTestClient(port: port)
            h.send("GET /livez HTTP/1.0\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n")
            let first = try h.response()
            #expect(first.status == 200 && first.headers["connection"] == "keep-alive", "\(first.headers)")
            h.send("GET /livez HTTP/1.0\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n")
            #expect(try h.response().body == "live\n", "a second request on the same connection")
        }
    }

    @Test func anHTTP10RequestWithoutKeepAliveIsClosedAfterItsResponse() throws {
        try HTTPTests.withHTTP { _, port in
            let h = try HTTPTestClient(port: port)
            h.send("GET /livez HTTP/1.0\r\nHost: localhost\r\n\r\n")
            let r = try h.response()
            #expect(r.headers["connection"] == "close")
            #expect(!h.fill(timeout: 5) && h.closed)
        }
    }

    @Test func anHTTP11ResponseSaysNothingOfKeepAlive() throws {
        try HTTPTests.withHTTP { _, port in
            let r = try HTTPTestClient(port: port).get("/livez")
            #expect(r.headers["connection"] == nil)
        }
    }
}
