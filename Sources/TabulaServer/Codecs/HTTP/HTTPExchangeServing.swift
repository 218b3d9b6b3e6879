import Foundation
import TabulaHTTP
import TabulaProtocol

/// The HTTP codec on a connection: requests cut by `HTTPParser`, answered in order (a
/// pipelined request waits for the one before it), reads and writes run through the same
/// request pipeline as the line protocol's (so the same grants, bounds and routes apply),
/// their replies handed back as values and written as the response (`deliver`); `GET
/// /events` turns the connection into an event stream whose replies and events are written
/// as Server-Sent Events.
extension HTTPExchange: ExchangeCodec {
    func take(_ bytes: UnsafeRawBufferPointer, of c: Connection, on loop: EventLoop) {
        take(parser.feed(bytes), of: c, on: loop)
    }

    func inputEnded(of c: Connection, on loop: EventLoop) { take(parser.finish(), of: c, on: loop) }

    /// Requests (and a refusal) the parser completed: queued behind what is in flight, then
    /// served as far as they may be now.
    private func take(_ parsed: [HTTPParsed], of c: Connection, on loop: EventLoop) {
        if !parsed.isEmpty {
            c.lastRequest = loop.nowSeconds
            c.hasRequested = true
        }
        guard loop.notePartialInput(c) else { return }
        if !streaming { waiting += parsed }  // a stream reads nothing more, but notices a close
        serve(c, on: loop)
        loop.refreshReading(c)
    }

    /// Answers the waiting requests in order until one is in flight, the output waits for
    /// the client, or the connection became a stream or is closing.
    func serve(_ c: Connection, on loop: EventLoop) {
        while inFlight == nil, !streaming, c.phase.runs, c.replay == nil, c.output.count < loop.config.outputPause,
            !waiting.isEmpty
        {
            switch waiting.popFirst()! {
            case .refusal(let status, let message):
                respond(c, .refusal(status, message), head: false, close: true, on: loop)
            case .request(let r):
                loop.stats.httpRequests.add()
                guard admissible(c, r, on: loop), authorize(c, r, on: loop) else { continue }
                route(c, r, on: loop)
            }
        }
        if waiting.isEmpty { waiting = [] }  // gives back what the taken requests held
        loop.refreshReading(c)
    }

    /// Writes `response` for the request (without its body for HEAD); closes after it when
    /// asked or when the request did not keep the connection alive.
    func respond(
        _ c: Connection, _ response: HTTPResponse, to r: HTTPRequest? = nil, head: Bool? = nil, close: Bool = false,
        on loop: EventLoop
    ) {
        let closing = close || !(r?.keepAlive ?? true) || loop.shuttingDown
        c.output.append(
            response.encoded(head: head ?? (r?.method == "HEAD"), close: closing, keepAlive: r?.http10 == true))
        if closing { c.phase = .closing }
        loop.markDirty(c)
    }

    /// The pipeline's answers: on an event stream, SSE frames written as they are; else each
    /// reply answers the request in flight (a login, an API request, a page's first read),
    /// its status from its error's code.
    func deliver(_ answers: [Answer], to c: Connection, on loop: EventLoop) -> (close: Bool, replay: ReplayPlan?) {
        if streaming {
            let effects = loop.write(answers, to: c)
            // A stream runs one request, its WATCH: refused (EXPIRED, NOTFOUND, LIMIT), the
            // stream ends after its `reply` event rather than stay open and silent.
            guard answers.contains(where: \.isRefusal) else { return effects }
            if c.output.chunkedBody { c.output.appendRaw(OutputQueue.lastChunk) }
            return (true, nil)
        }
        for answer in answers {
            guard case .run(let e, let tag, _, _, _) = answer, let f = inFlight else { continue }
            inFlight = nil
            answered(f, e.outcome.reply, tag: tag, of: c, on: loop)
        }
        loop.ready.append(c)  // what waits behind runs at the top of the turn
        return (false, nil)
    }

    /// `reply` answers the request in flight `f`.
    private func answered(_ f: InFlight, _ reply: Reply, tag: String?, of c: Connection, on loop: EventLoop) {
        let status = reply.error.map { HTTPStatus(code: $0.code) } ?? .ok
        switch f {
        case .login(let header, let r):
            guard let error = reply.error else {
                authorizedAs = header
                // a slice: its start moves on with each popFirst
                return waiting.insert(.request(r), at: waiting.startIndex)
            }
            respond(
                c,
                .refusal(
                    status == .tooManyRequests ? .tooManyRequests : .unauthorized, error.message,
                    headers: HTTPExchange.challenge), to: r, on: loop)
        case .request(let r):
            respond(
                c, HTTPResponse(status, contentType: "application/json", body: HTTPExchange.body(reply, tag: tag)),
                to: r, on: loop)
        case .page(let r, let path):
            respond(
                c,
                WebAssets.view(
                    role: (c.session.user?.role ?? .admin).rawValue, path: path,
                    reply: reply.error == nil ? HTTPExchange.body(reply, tag: tag).dropLast() : nil), to: r, on: loop)
        }
    }

    /// A reply's JSON object, with its newline: the body of an API response.
    static func body(_ reply: Reply, tag: String?) -> [UInt8] {
        var body: [UInt8] = []
        WireEncoder.encode(reply, tag: tag, format: .json, into: &body)
        return body
    }

    var hasWaiting: Bool { !waiting.isEmpty }

    var holdsTooMuch: Bool {
        waiting.count > HTTPExchange.mostWaiting || (!waiting.isEmpty && waitingBodyBytes > HTTPParser.maxBody)
    }

    var partialCount: Int { parser.partialCount }

    /// A stream says its goodbye as an event; a request in progress is answered the status
    /// that fits the reason; a connection between requests is closed with nothing said.
    func goodbye(_ reason: CloseReason, pushed bye: [UInt8], of c: Connection) -> [UInt8]? {
        if streaming { return bye }
        guard parser.partialCount > 0 || inFlight != nil || !waiting.isEmpty else { return nil }
        return HTTPResponse.refusal(reason.status, reason.message).encoded(close: true)
    }

    func pushed(at now: Int) { lastStreamed = now }

    /// Sends a comment down an event stream quiet for `keepAliveSeconds`, so that proxies
    /// keep it open and a page can tell a quiet stream from a dead one.
    func keepAlive(_ c: Connection, on loop: EventLoop) {
        guard streaming, c.replay == nil, loop.nowSeconds - lastStreamed >= HTTPExchange.keepAliveSeconds else {
            return
        }
        loop.push(Array(": keep-alive\n\n".utf8), to: c)
    }

    func isIdle(_ c: Connection) -> Bool {
        !streaming && c.output.isEmpty && c.partialSince == nil && inFlight == nil && waiting.isEmpty
            && !c.phase.awaits
    }
}
