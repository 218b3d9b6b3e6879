import TabulaHTTP
import TabulaProtocol

/// The HTTP codec's state on one connection: the parser, the requests read and not yet
/// answered (pipelined ones wait, in order, for the one in flight), and once `GET /events`
/// began, the event stream it became. Owned by the connection's loop.
final class HTTPExchange {
    let parser = HTTPParser()
    /// Requests read, in order, behind the one in flight (a slice: taking the first is O(1),
    /// however many one read brought).
    var waiting: ArraySlice<HTTPParsed> = []
    /// The request whose answer comes back as a reply line of the request pipeline.
    var inFlight: InFlight?
    /// The connection became an event stream: replies and events are SSE frames from now on.
    var streaming = false
    /// The `Authorization` header whose login this connection's session has (nil: none yet).
    var authorizedAs: String?
    /// When (the loop's clock) the stream last sent anything, for its keep-alive comments.
    var lastStreamed = 0

    /// Most requests read ahead of their answers; past it reading pauses.
    static let mostWaiting = 64

    /// The bytes of the POST bodies read ahead of their answers: past `HTTPParser.maxBody`
    /// reading pauses, so that what one connection holds stays near one body's worth.
    var waitingBodyBytes: Int {
        waiting.reduce(0) { sum, p in if case .request(let r) = p { return sum + r.body.count } else { return sum } }
    }
    /// Seconds between the comments that keep an idle event stream open through proxies.
    static let keepAliveSeconds = 15

    /// What a reply line of the request pipeline answers.
    enum InFlight {
        /// The login of `header` (AUTH); `request` runs once it is through.
        case login(header: String, request: HTTPRequest)
        /// A request of `/api/…`: the reply becomes the response body.
        case request(HTTPRequest)
        /// A page's first read (`path` its list's): the reply goes inside the page.
        case page(HTTPRequest, path: String)
    }
}
