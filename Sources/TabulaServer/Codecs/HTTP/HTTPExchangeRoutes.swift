import Foundation
import TabulaHTTP
import TabulaProtocol

/// An HTTP request's way once read: its Host and origin checked (`admissible`), its login
/// (`authorize`), then the page, probe, listing or request pipeline it asks for (`route`).
extension HTTPExchange {
    /// Whether `r` may be looked at at all, before its login and before its body is read:
    /// its Host must name this server (`HostRule`: no DNS rebinding), and a POST must not
    /// come from another site's page (`crossSiteRefusal`). Refused otherwise, and a wrong
    /// Host closes the connection.
    func admissible(_ c: Connection, _ r: HTTPRequest, on loop: EventLoop) -> Bool {
        if let why = loop.hostRule.refusal(r.header("host")) {
            respond(c, HTTPRoutes.refusal(of: r, .misdirected, why), to: r, close: true, on: loop)
            return false
        }
        if r.method == "POST", let why = HTTPRoutes.crossSiteRefusal(r) {
            respond(c, HTTPRoutes.refusal(of: r, .forbidden, why), to: r, on: loop)
            return false
        }
        return true
    }

    static let challenge = [("WWW-Authenticate", "Basic realm=\"tabulad\", charset=\"UTF-8\"")]

    /// Whether `r` may go on: without users, or opened with `--http-open`, or with the login
    /// this connection has; a new login is sent to the authenticator (false: `r` runs when it
    /// answers, or was refused).
    func authorize(_ c: Connection, _ r: HTTPRequest, on loop: EventLoop) -> Bool {
        guard loop.config.users != nil else { return true }
        let h = self
        if HTTPRoutes.opening(of: r.path).map(loop.config.httpOpen.contains) == true { return true }
        guard let header = r.header("authorization") else {
            respond(
                c,
                HTTPRoutes.refusal(
                    of: r, .unauthorized, "log in with a user of the server's users file (HTTP Basic)",
                    headers: HTTPExchange.challenge), to: r, on: loop)
            return false
        }
        if header == h.authorizedAs { return true }
        guard let (name, secret) = HTTPRoutes.basicCredentials(header) else {
            respond(
                c,
                .refusal(
                    .unauthorized, "the Authorization header is not Basic base64(name:secret)",
                    headers: HTTPExchange.challenge), to: r, on: loop)
            return false
        }
        h.inFlight = .login(header: header, request: r)
        loop.run(c, request: Request(command: .auth(name: name, secret: secret)))
        return false
    }

    /// Answers an authorized request.
    func route(_ c: Connection, _ r: HTTPRequest, on loop: EventLoop) {
        switch HTTPRoutes.route(r) {
        case .page(let body, let type):
            respond(
                c, HTTPResponse(.ok, contentType: type, headers: [("Cache-Control", "no-cache")], body: body), to: r,
                on: loop)
        case .view(let first):
            guard r.method != "HEAD", case .ls(let path?, _, _) = first.command else {
                return respond(
                    c, WebAssets.view(role: (c.session.user?.role ?? .admin).rawValue, path: "/", reply: nil), to: r,
                    on: loop)
            }
            inFlight = .page(r, path: path)
            loop.run(c, request: first)
        case .redirect(let to):
            let location = HTTPParser.encodePath(to)
            respond(
                c,
                HTTPResponse(
                    .permanentRedirect, headers: [("Location", location)],
                    text: "308 Permanent Redirect: the page is at \(location)\n"), to: r, on: loop)
        case .live:
            respond(c, HTTPResponse(.ok, text: "live\n"), to: r, on: loop)
        case .ready:
            let why = loop.readiness()
            respond(
                c, why.map { HTTPResponse.refusal(.unavailable, $0) } ?? HTTPResponse(.ok, text: "ready\n"), to: r,
                on: loop)
        case .metrics:
            guard adminOrOpen(c, r, .metrics, on: loop) else { return }
            respond(
                c,
                HTTPResponse(
                    .ok, contentType: "text/plain; version=0.0.4; charset=utf-8", body: Array(loop.metricsText().utf8)),
                to: r, on: loop)
        case .clients:
            guard adminOrOpen(c, r, nil, on: loop) else { return }
            respond(c, HTTPResponse(.ok, contentType: "application/json", body: loop.clientsBody()), to: r, on: loop)
        case .request(let request):
            if r.method == "POST", let why = postRefusal(c, r, request, on: loop) {
                return respond(c, HTTPRoutes.refusal(of: r, .forbidden, why), to: r, on: loop)
            }
            inFlight = .request(r)
            loop.run(c, request: request)
        case .events(let prefix, let from, let snapshot, let progress):
            startStream(c, r, prefix: prefix, from: from, snapshot: snapshot, progress: progress, on: loop)
        case .refusal(let status, let message):
            respond(c, HTTPRoutes.refusal(of: r, status, message), to: r, on: loop)
        }
    }

    /// Why a POST may not run here, or nil when it may (another site's page was refused by
    /// `admissible` already): without `--users`, a write only from this machine unless `--http-open writes` (with
    /// users, the login and its role and grants decide, as on every transport).
    private func postRefusal(_ c: Connection, _ r: HTTPRequest, _ request: Request, on loop: EventLoop) -> String? {
        guard loop.config.users == nil, request.command.isWrite, !c.peer.isOnThisMachine,
            !loop.config.httpOpen.contains(.writes)
        else { return nil }
        return
            "writes over HTTP are taken from this machine only while the server has no users; start tabulad with --users FILE (who may write) or --http-open writes"
    }

    /// Whether the connection's user is an admin (or the route is opened, or there are no users).
    private func adminOrOpen(_ c: Connection, _ r: HTTPRequest, _ opening: HTTPOpening?, on loop: EventLoop) -> Bool {
        guard loop.config.users != nil, !(opening.map(loop.config.httpOpen.contains) ?? false) else { return true }
        if c.session.user?.role == .admin { return true }
        respond(
            c, .refusal(.forbidden, "\(r.path) counts everything on the server; log in as an admin user"), to: r,
            on: loop)
        return false
    }

    /// Turns the connection into an event stream of what is under `prefix`, from `from`.
    private func startStream(
        _ c: Connection, _ r: HTTPRequest, prefix: String, from: UInt64?, snapshot: Bool, progress: Bool,
        on loop: EventLoop
    ) {
        let h = self
        if r.method == "HEAD" {
            return respond(c, HTTPResponse(.ok, contentType: "text/event-stream", body: []), to: r, on: loop)
        }
        h.streaming = true
        h.waiting.removeAll()
        h.lastStreamed = loop.nowSeconds
        c.session.format = .sse
        // HTTP/1.1: chunked, so that a reader reading in blocks (urllib3) gets each event at
        // once; HTTP/1.0 has no chunks: its body ends with the connection.
        c.output.append(HTTPResponse.eventStreamHead(chunked: !r.http10))
        if !r.http10 { c.output.beginChunkedBody() }
        // Part of the reply's block, not a block of its own: a block with no data is no event,
        // but lenient readers (httpx-sse) hand it on as a message with empty data.
        c.output.append(Array("retry: 2000\n".utf8))
        loop.markDirty(c)
        loop.run(
            c, request: Request(command: .watch(prefix: prefix, from: from, snapshot: snapshot, progress: progress)))
    }
}
