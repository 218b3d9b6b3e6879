import Testing
import TabulaHTTP
@testable import TabulaServer

/// One typed goodbye: each reason says its words and fits an HTTP status to them.
@Suite struct CloseReasonTests {
    @Test func eachReasonAnswersAnHTTPRequestInProgressWithTheStatusThatFitsIt() {
        let cases: [(CloseReason, HTTPStatus)] = [
            (.shutdown, .unavailable), (.full("too many"), .unavailable), (.idle(seconds: 5), .requestTimeout),
            (.stalled("slow"), .requestTimeout), (.slowConsumer("unread"), .unavailable),
            (.credentialsChanged("removed"), .unauthorized), (.historyChanged("new history"), .unavailable),
            (.replayStopped("overtaken"), .unavailable),
        ]
        for (reason, status) in cases { #expect(reason.status == status, "\(reason)") }
    }

    @Test func aRefusedConnectionIsToldWhyInItsPortsProtocol() {
        let reason = CloseReason.full("too many connections (limit 3); try again later")
        #expect(
            String(decoding: reason.refusalBytes(http: false), as: UTF8.self)
                == "* BYE too many connections (limit 3); try again later\n")
        let http = String(decoding: reason.refusalBytes(http: true), as: UTF8.self)
        #expect(
            http.hasPrefix("HTTP/1.1 503 ") && http.contains("Connection: close")
                && http.hasSuffix("too many connections (limit 3); try again later\n"), "\(http)")
        #expect(CloseReason.idle(seconds: 30).message == "idle for 30 s (--idle-timeout); reconnect when needed")
        #expect(CloseReason.replayStopped("the history moved").message == "replay stopped: the history moved")
    }
}
