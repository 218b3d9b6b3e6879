import Foundation
import TabulaHTTP
import TabulaModel
import TabulaProtocol

/// What each HTTP path serves: pure (no I/O), so every route and refusal is tested alone.
enum HTTPRoutes {
    /// What an authorized request gets.
    enum Route: Equatable {
        /// A page or asset built into the binary.
        case page([UInt8], contentType: String)
        /// A page of the web view, served with the first read it makes (`LS` of its list)
        /// inside it, so that its first paint shows the rows without a round trip.
        case view(first: Request)
        /// A page asked for by a path with `.` or `..` segments or doubled slashes: sent to
        /// the path they resolve to, so that no page is drawn at (or writes) a path that
        /// names something other than what it shows.
        case redirect(String)
        /// `/livez`: the process serves.
        case live
        /// `/readyz`, `/healthz`: whether it should be sent traffic.
        case ready
        case metrics
        case clients
        /// A request through the request pipeline (`GET /api/ls`, `GET /api/show`, and every
        /// `POST /api/VERB`): its reply, as JSON, is the response body.
        case request(Request)
        /// `/events`: a stream of the changes under the prefix, after the revision.
        /// `snapshot`: `snapshot=1`, the rows first (`WATCH … SNAPSHOT`); `progress`:
        /// `progress=1`, a marker now and then (`WATCH … PROGRESS`).
        case events(prefix: String, from: UInt64?, snapshot: Bool = false, progress: Bool = false)
        case refusal(HTTPStatus, String)
    }

    /// The lists whose pages the web view draws; a page is served at each list and at every
    /// path under it (`/settings/my-int`, `/catalog/item-1/item-1.2`, `/items/5`), so that a
    /// drill-down has an address that a reload, Back and a link keep.
    static let lists: Set<String> = ["settings", "catalog", "items", "menu", "orders"]
    /// The server's own pages, around `/clients` and `/metrics` (which stay as they are, for
    /// tools): the page reads them itself, so it carries no first read.
    static let serverPages: Set<String> = ["/server/clients", "/server/metrics"]

    /// Whether `path` is the index or a page of the web view.
    static func isPage(_ path: String) -> Bool {
        guard path != "/" else { return true }
        if serverPages.contains(path) { return true }
        guard path.hasPrefix("/") else { return false }
        return lists.contains(String(ModelPath.topName(of: path)))
    }

    /// `path` with its `.` and `..` segments applied and empty segments dropped; a trailing
    /// slash, which the catalog's pages take, is kept.
    static func resolvedPage(_ path: String) -> String {
        let resolved = ModelPath.join(ModelPath.segments(path, cwd: "/"))
        return path.count > 1 && path.hasSuffix("/") && resolved != "/" ? resolved + "/" : resolved
    }

    /// The read a page makes first, as its script makes it: `LS` of the list it shows (the
    /// catalog's of the node it is at), a page of at most 1,000 rows; none (no path) for the
    /// server's own pages.
    static func firstRead(of path: String) -> Request {
        let first = path.split(separator: "/").first.map(String.init)
        let list: String
        switch first {
        case nil: return Request(command: .ls(path: "/", limit: nil, after: nil))
        case "server": return Request(command: .ls(path: nil, limit: nil, after: nil))  // nothing to read first
        case "catalog": list = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        case "orders": list = "/menu"
        default: list = "/" + first!
        }
        return Request(command: .ls(path: list, limit: 1_000, after: nil))
    }

    static func route(_ r: HTTPRequest) -> Route {
        if r.method == "POST" { return post(r) }
        switch r.path {
        case let p where isPage(p):
            let resolved = resolvedPage(p)
            return resolved == p ? .view(first: firstRead(of: p)) : .redirect(resolved)
        case "/static/tabula.js": return .page(WebAssets.script, contentType: "text/javascript; charset=utf-8")
        case "/static/tabula.css": return .page(WebAssets.style, contentType: "text/css; charset=utf-8")
        case "/livez": return .live
        case "/readyz", "/healthz": return .ready
        case "/metrics": return .metrics
        case "/clients": return .clients
        case "/api/ls":
            guard let path = absolutePath(r) else { return missingPath }
            var words = ["LS", path]
            if let l = r.parameter("limit") { words += ["LIMIT", l] }
            if let a = r.parameter("after") { words += ["AFTER", a] }
            return built(words)
        case "/api/show":
            guard let path = absolutePath(r) else { return missingPath }
            return built(["SHOW", path])
        case "/events":
            let prefix = r.parameter("prefix") ?? "/"
            guard prefix.hasPrefix("/") else {
                return .refusal(.badRequest, "prefix must be an absolute path such as /items")
            }
            let snapshot = r.parameter("snapshot") == "1", progress = r.parameter("progress") == "1"
            // A reconnecting browser says the last event it had: that wins over the page's `from`.
            guard let text = r.header("last-event-id") ?? r.parameter("from") else {
                return .events(prefix: prefix, from: nil, snapshot: snapshot, progress: progress)
            }
            guard let rev = UInt64(text.trimmingCharacters(in: .whitespaces)) else {
                return .refusal(
                    .badRequest, "from (or Last-Event-ID) must be a revision number, not '\(TabulaError.quoting(text))'"
                )
            }
            return .events(prefix: prefix, from: rev, snapshot: snapshot, progress: progress)
        default:
            return .refusal(
                .notFound,
                "no page \(TabulaError.quoting(r.path)); / lists the pages, and /metrics, /livez, /readyz, /clients and /events are served"
            )
        }
    }

    /// `POST /api/VERB` with `{"args": ["word", …]}`: the words after the verb, as a line
    /// would have them (so `IF REV n` is three more words), through the one request builder.
    private static func post(_ r: HTTPRequest) -> Route {
        guard r.path.hasPrefix("/api/"), r.path.count > 5 else {
            return .refusal(
                .methodNotAllowed,
                "POST is taken at /api/VERB only (POST /api/select with {\"args\": [\"/settings/my-int\", \"#2\"]}); pages, streams and metrics are read with GET"
            )
        }
        let name = String(r.path.dropFirst(5)).uppercased()
        guard let verb = Verb(rawValue: name) else {
            return .refusal(
                .notFound,
                "no verb \(TabulaError.quoting(name)) at \(TabulaError.quoting(r.path)); HELP over the line protocol lists them"
            )
        }
        if let why = refusalOverHTTP(verb) { return .refusal(.badRequest, why) }
        switch arguments(of: r.body) {
        case .failure(let why): return .refusal(.badRequest, why.message)
        case .success(let args): return built([verb.rawValue] + args)
        }
    }

    /// Why `verb` is not taken as `POST /api/VERB`, or nil when it is: each HTTP request
    /// stands alone, so verbs that change only the connection (CD, FILTER, FORMAT, WATCH,
    /// AUTH, QUIT) have nothing to act on; a login is HTTP Basic, and a stream is `/events`.
    static func refusalOverHTTP(_ verb: Verb) -> String? {
        guard !verb.spec.traits.overHTTP else { return nil }
        return "\(verb.rawValue) changes only a connection's own state, and each HTTP request stands alone: "
            + "log in with HTTP Basic, follow changes with GET /events?prefix=/items, and read or write with /api/ls, /api/show or POST /api/VERB"
    }

    /// The words of a POST's body: `{"args": [...]}` with strings (numbers are taken as their
    /// digits), at most `maxArguments` of them.
    static func arguments(of body: [UInt8]) -> Result<[String], TabulaError> {
        let shape = "send the words after the verb as {\"args\": [\"/items/3\", \"on\"]} (JSON, strings)"
        guard !body.isEmpty else { return .success([]) }
        guard let text = String(validating: body, as: UTF8.self), let json = JSONParser.parse(text) else {
            return .failure(TabulaError(.syntax, "the body is not JSON; \(shape)"))
        }
        guard case .object = json.resolved else {
            return .failure(TabulaError(.syntax, "the body is not a JSON object; \(shape)"))
        }
        guard let value = json["args"] else { return .success([]) }
        guard case .array(let items) = value.resolved else {
            return .failure(TabulaError(.syntax, "args is not an array; \(shape)"))
        }
        guard items.count <= maxArguments else {
            return .failure(TabulaError(.tooLong, "more than \(maxArguments) args; send fewer words in one request"))
        }
        var words: [String] = []
        for item in items {
            switch item.resolved {
            case .string(let s): words.append(s)
            case .int(let n): words.append(String(n))
            default: return .failure(TabulaError(.syntax, "every arg is a string (or a whole number); \(shape)"))
            }
        }
        return .success(words)
    }

    /// Most words one POST may carry: the gate's element bound, as on every port.
    static let maxArguments = RequestGate.mostElements

    /// The request the words make, or the refusal that says why they make none.
    private static func built(_ words: [String]) -> Route {
        switch RequestParser.parseRequest(tokens: words) {
        case .success(let request): return .request(request)
        case .failure(let e): return .refusal(HTTPStatus(code: e.code), e.message)
        }
    }

    /// Why a browser page of another site may not send this POST, or nil when it may: its
    /// `Origin` must be this server's own (the `Host` it was sent to), or, lacking an Origin,
    /// `Sec-Fetch-Site` must say same-origin. A request with neither was not sent by a
    /// browser's page (curl, scripts), which no page can make a browser forge.
    static func crossSiteRefusal(_ r: HTTPRequest) -> String? {
        if let origin = r.header("origin") {
            let host = r.header("host") ?? ""
            if origin == "http://\(host)" || origin == "https://\(host)" { return nil }
            return
                "a write from another site's page (Origin \(TabulaError.quoting(origin))) is refused; use this server's own pages, or a client that is not a browser"
        }
        if let site = r.header("sec-fetch-site"), site != "same-origin", site != "none" {
            return
                "a write from another site's page (Sec-Fetch-Site \(TabulaError.quoting(site))) is refused; use this server's own pages"
        }
        return nil
    }

    private static let missingPath = Route.refusal(
        .badRequest, "give the path to read as ?path=/items (an absolute path)")

    private static func absolutePath(_ r: HTTPRequest) -> String? {
        guard let p = r.parameter("path"), p.hasPrefix("/") else { return nil }
        return p
    }

    /// Which `--http-open` opening serves `path`, if any.
    static func opening(of path: String) -> HTTPOpening? {
        switch path {
        case "/metrics": return .metrics
        case "/livez", "/readyz", "/healthz": return .health
        default: return nil
        }
    }

    /// A refusal of `r` in the shape its caller reads: on `/api/…` the JSON of an error reply
    /// (`{"ok":false,"code":…,"message":…}`, as a refused request's reply), elsewhere text.
    static func refusal(of r: HTTPRequest, _ status: HTTPStatus, _ message: String, headers: [(String, String)] = [])
        -> HTTPResponse
    {
        guard r.path.hasPrefix("/api/") else { return .refusal(status, message, headers: headers) }
        var body: [UInt8] = []
        JSONValue.object([
            ("ok", .bool(false)), ("code", .string(ErrorCode(status: status).rawValue)), ("message", .string(message)),
        ]).write(to: &body)
        body.append(10)
        return HTTPResponse(status, contentType: "application/json", headers: headers, body: body)
    }

    /// The name and secret of a `Basic` Authorization header; nil when it is not one.
    static func basicCredentials(_ header: String) -> (String, String)? {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }
}

extension ErrorCode {
    /// The code that says what a refusal's status says (the inverse of `HTTPStatus(code:)`).
    init(status: HTTPStatus) {
        switch status {
        case .notFound: self = .notFound
        case .unauthorized: self = .noAuth
        case .forbidden, .misdirected: self = .noPerm
        case .tooManyRequests: self = .limit
        case .gone: self = .expired
        case .conflict: self = .conflict
        case .unavailable, .requestTimeout: self = .timeout
        case .payloadTooLarge, .uriTooLong, .headersTooLarge: self = .tooLong
        default: self = .syntax
        }
    }
}

extension HTTPStatus {
    /// The status that says what an error code says.
    init(code: ErrorCode) {
        switch code {
        case .notFound: self = .notFound
        case .noAuth, .wrongPass: self = .unauthorized
        case .noPerm: self = .forbidden
        case .limit: self = .tooManyRequests
        case .expired: self = .gone
        case .exists, .conflict: self = .conflict
        case .storage, .timeout, .inDoubt: self = .unavailable
        case .syntax, .unknown, .tooLong, .encoding, .invalid: self = .badRequest
        }
    }
}
