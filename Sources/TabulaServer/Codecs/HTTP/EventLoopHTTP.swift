import Foundation
import TabulaHTTP
import TabulaProtocol

/// The HTTP codec on the loops: requests cut by `HTTPParser`, answered in order (a pipelined
/// request waits for the one before it), reads of the model run through the same request
/// pipeline as the line protocol's (so the same grants, bounds and cache apply) with their
/// JSON reply as the response body, and `GET /events` turned into a `WATCH` whose replies
/// and events are written as Server-Sent Events.
extension EventLoop {
    /// Bytes just read into `readBuffer` on an HTTP connection.
    func takeHTTP(_ c: Connection, bytes n: Int) {
        guard let h = c.http else { return }
        let parsed = readBuffer.withUnsafeBytes { h.parser.feed(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        takeHTTP(c, parsed)
    }

    /// Requests (and a refusal) the parser completed: queued behind what is in flight, then
    /// served as far as they may be now.
    func takeHTTP(_ c: Connection, _ parsed: [HTTPParsed]) {
        guard let h = c.http else { return }
        if !parsed.isEmpty {
            c.lastRequest = nowSeconds
            c.hasRequested = true
        }
        guard notePartialInput(c) else { return }
        if !h.streaming { h.waiting += parsed }  // a stream reads nothing more, but notices a close
        serveHTTP(c)
        refreshReading(c)
    }

    /// Answers the waiting requests in order until one is in flight, the output waits for
    /// the client, or the connection became a stream or is closing.
    func serveHTTP(_ c: Connection) {
        guard let h = c.http else { return }
        while h.inFlight == nil, !h.streaming, c.phase.runs, c.replay == nil,
            c.output.count < config.outputPause, !h.waiting.isEmpty, conns[c.id.raw] != nil
        {
            switch h.waiting.popFirst()! {
            case .refusal(let status, let message):
                respond(c, .refusal(status, message), head: false, close: true)
            case .request(let r):
                stats.httpRequests.add()
                guard admissible(c, r), authorize(c, r) else { continue }
                route(c, r)
            }
        }
        if h.waiting.isEmpty { h.waiting = [] }  // gives back what the taken requests held
        refreshReading(c)
    }

    /// Writes `response` for the request (without its body for HEAD); closes after it when
    /// asked or when the request did not keep the connection alive.
    func respond(
        _ c: Connection, _ response: HTTPResponse, to r: HTTPRequest? = nil, head: Bool? = nil, close: Bool = false
    ) {
        let closing = close || !(r?.keepAlive ?? true) || shuttingDown
        c.output.append(
            response.encoded(head: head ?? (r?.method == "HEAD"), close: closing, keepAlive: r?.http10 == true))
        if closing { c.phase = .closing }
        markDirty(c)
    }

    /// What the request pipeline answered an HTTP connection: SSE frames go out as they are;
    /// a reply record (`HTTPAPICodec`) to a login or a read answers the request in flight.
    func httpReplies(_ c: Connection, _ bytes: [UInt8]) {
        guard let h = c.http, !h.streaming else { return c.output.append(bytes) }
        for reply in HTTPAPICodec.records(bytes) {
            guard let f = h.inFlight else { continue }
            h.inFlight = nil
            switch f {
            case .login(let header, let r):
                if reply.code != nil {
                    respond(
                        c,
                        .refusal(
                            reply.status == .tooManyRequests ? .tooManyRequests : .unauthorized, reply.message,
                            headers: EventLoop.challenge), to: r)
                } else {
                    h.authorizedAs = header
                    // a slice: its start moves on with each popFirst
                    h.waiting.insert(.request(r), at: h.waiting.startIndex)
                }
            case .request(let r):
                respond(c, HTTPResponse(reply.status, contentType: "application/json", body: reply.body), to: r)
            case .page(let r, let path):
                respond(
                    c,
                    WebAssets.view(
                        role: (c.session.user?.role ?? .admin).rawValue, path: path,
                        reply: reply.code == nil ? reply.body.dropLast() : nil), to: r)
            }
        }
        ready.append(c)  // what waits behind runs at the top of the turn
    }

    /// Whether `r` may be looked at at all, before its login and before its body is read:
    /// its Host must name this server (`HostRule`: no DNS rebinding), and a POST must not
    /// come from another site's page (`crossSiteRefusal`). Refused otherwise, and a wrong
    /// Host closes the connection.
    private func admissible(_ c: Connection, _ r: HTTPRequest) -> Bool {
        if let why = hostRule.refusal(r.header("host")) {
            respond(c, HTTPRoutes.refusal(of: r, .misdirected, why), to: r, close: true)
            return false
        }
        if r.method == "POST", let why = HTTPRoutes.crossSiteRefusal(r) {
            respond(c, HTTPRoutes.refusal(of: r, .forbidden, why), to: r)
            return false
        }
        return true
    }

    static let challenge = [("WWW-Authenticate", "Basic realm=\"tabulad\", charset=\"UTF-8\"")]

    /// Whether `r` may go on: without users, or opened with `--http-open`, or with the login
    /// this connection has; a new login is sent to the authenticator (false: `r` runs when it
    /// answers, or was refused).
    private func authorize(_ c: Connection, _ r: HTTPRequest) -> Bool {
        guard config.users != nil, let h = c.http else { return true }
        if HTTPRoutes.opening(of: r.path).map(config.httpOpen.contains) == true { return true }
        guard let header = r.header("authorization") else {
            respond(
                c,
                HTTPRoutes.refusal(
                    of: r, .unauthorized, "log in with a user of the server's users file (HTTP Basic)",
                    headers: EventLoop.challenge), to: r)
            return false
        }
        if header == h.authorizedAs { return true }
        guard let (name, secret) = HTTPRoutes.basicCredentials(header) else {
            respond(
                c,
                .refusal(
                    .unauthorized, "the Authorization header is not Basic base64(name:secret)",
                    headers: EventLoop.challenge), to: r)
            return false
        }
        h.inFlight = .login(header: header, request: r)
        run(c, request: Request(command: .auth(name: name, secret: secret)))
        return false
    }

    /// Answers an authorized request.
    private func route(_ c: Connection, _ r: HTTPRequest) {
        switch HTTPRoutes.route(r) {
        case .page(let body, let type):
            respond(
                c, HTTPResponse(.ok, contentType: type, headers: [("Cache-Control", "no-cache")], body: body), to: r)
        case .view(let first):
            guard r.method != "HEAD", case .ls(let path?, _, _) = first.command else {
                return respond(
                    c, WebAssets.view(role: (c.session.user?.role ?? .admin).rawValue, path: "/", reply: nil), to: r)
            }
            c.http?.inFlight = .page(r, path: path)
            run(c, request: first)
        case .redirect(let to):
            let location = HTTPParser.encodePath(to)
            respond(
                c,
                HTTPResponse(
                    .permanentRedirect, headers: [("Location", location)],
                    text: "308 Permanent Redirect: the page is at \(location)\n"), to: r)
        case .live:
            respond(c, HTTPResponse(.ok, text: "live\n"), to: r)
        case .ready:
            let why = readiness()
            respond(c, why.map { HTTPResponse.refusal(.unavailable, $0) } ?? HTTPResponse(.ok, text: "ready\n"), to: r)
        case .metrics:
            guard adminOrOpen(c, r, .metrics) else { return }
            respond(
                c,
                HTTPResponse(
                    .ok, contentType: "text/plain; version=0.0.4; charset=utf-8", body: Array(metricsText().utf8)),
                to: r)
        case .clients:
            guard adminOrOpen(c, r, nil) else { return }
            respond(c, HTTPResponse(.ok, contentType: "application/json", body: clientsBody()), to: r)
        case .request(let request):
            if r.method == "POST", let why = postRefusal(c, r, request) {
                return respond(c, HTTPRoutes.refusal(of: r, .forbidden, why), to: r)
            }
            c.http?.inFlight = .request(r)
            run(c, request: request)
        case .events(let prefix, let from, let snapshot, let progress):
            startStream(c, r, prefix: prefix, from: from, snapshot: snapshot, progress: progress)
        case .refusal(let status, let message):
            respond(c, HTTPRoutes.refusal(of: r, status, message), to: r)
        }
    }

    /// Why a POST may not run here, or nil when it may (another site's page was refused by
    /// `admissible` already): without `--users`, a write only from this machine unless `--http-open writes` (with
    /// users, the login and its role and grants decide, as on every transport).
    private func postRefusal(_ c: Connection, _ r: HTTPRequest, _ request: Request) -> String? {
        guard config.users == nil, request.command.isWrite, !c.peer.isOnThisMachine, !config.httpOpen.contains(.writes)
        else { return nil }
        return
            "writes over HTTP are taken from this machine only while the server has no users; start tabulad with --users FILE (who may write) or --http-open writes"
    }

    /// The `/clients` body: the one made this second while no connection came or went here,
    /// else made now (O(connections): about 15 ms of CPU at 5,000 of them, which every
    /// request of a scraper in a loop paid before).
    private func clientsBody() -> [UInt8] {
        if let page = clientsPage, page.second == nowSeconds { return page.body }
        let body = ClientInfo.json(allClients(), now: nowSeconds)
        clientsPage = (nowSeconds, body)
        return body
    }

    /// Whether the connection's user is an admin (or the route is opened, or there are no users).
    private func adminOrOpen(_ c: Connection, _ r: HTTPRequest, _ opening: HTTPOpening?) -> Bool {
        guard config.users != nil, !(opening.map(config.httpOpen.contains) ?? false) else { return true }
        if c.session.user?.role == .admin { return true }
        respond(c, .refusal(.forbidden, "\(r.path) counts everything on the server; log in as an admin user"), to: r)
        return false
    }

    /// Turns the connection into an event stream of what is under `prefix`, from `from`.
    private func startStream(
        _ c: Connection, _ r: HTTPRequest, prefix: String, from: UInt64?, snapshot: Bool, progress: Bool
    ) {
        guard let h = c.http else { return }
        if r.method == "HEAD" {
            return respond(c, HTTPResponse(.ok, contentType: "text/event-stream", body: []), to: r)
        }
        h.streaming = true
        h.waiting.removeAll()
        h.lastStreamed = nowSeconds
        c.session.format = .sse
        // HTTP/1.1: chunked, so that a reader reading in blocks (urllib3) gets each event at
        // once; HTTP/1.0 has no chunks: its body ends with the connection.
        c.output.append(HTTPResponse.eventStreamHead(chunked: !r.http10))
        if !r.http10 { c.output.beginChunkedBody() }
        // Part of the reply's block, not a block of its own: a block with no data is no event,
        // but lenient readers (httpx-sse) hand it on as a message with empty data.
        c.output.append(Array("retry: 2000\n".utf8))
        markDirty(c)
        run(c, request: Request(command: .watch(prefix: prefix, from: from, snapshot: snapshot, progress: progress)))
    }

    /// Why the server should not be sent traffic now, or nil when it is ready.
    func readiness() -> String? {
        if shuttingDown { return "shutting down" }
        if let why = executor.state.storeRefusal.withLock({ $0 }) { return why }
        if executor.store.isShared {
            let head = executor.state.storeHead.load(ordering: .relaxed)
            let applied = executor.state.publishedRevision.load(ordering: .relaxed)
            if head > applied && head - applied > config.readyLag {
                return "this node is \(head - applied) revisions behind the store (more than \(config.readyLag))"
            }
        }
        return nil
    }

    /// Whether `c` is an HTTP connection kept alive with nothing asked or owed (closed, with
    /// nothing said, once that lasts the stall timeout).
    func httpKeepAliveIsOver(_ c: Connection) -> Bool {
        guard let h = c.http, !h.streaming else { return false }
        return c.output.isEmpty && c.partialSince == nil && h.inFlight == nil && h.waiting.isEmpty && !c.phase.awaits
    }

    /// Sends a comment down every event stream that has been quiet for `keepAliveSeconds`,
    /// so that proxies keep it open and a page can tell a quiet stream from a dead one.
    func keepStreamsAlive() {
        for c in Array(conns.values) {
            guard let h = c.http, h.streaming, c.replay == nil,
                nowSeconds - h.lastStreamed >= HTTPExchange.keepAliveSeconds
            else { continue }
            push(Array(": keep-alive\n\n".utf8), to: c)
        }
    }
}
