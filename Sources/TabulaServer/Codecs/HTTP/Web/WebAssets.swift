import TabulaHTTP
import TabulaProtocol

/// The live web view, built into the binary: one page for every list (the script picks the
/// view from the path), its style and its script. Nothing is fetched from elsewhere.
enum WebAssets {
    /// The page before and after the place its first read goes.
    static let (pageHead, pageTail): ([UInt8], [UInt8]) = {
        let parts = WebPage.html.components(separatedBy: "<!--first-->")
        return (Array(parts[0].utf8), Array(parts[1].utf8))
    }()
    /// The page, with what its script needs before its first paint: the role it acts as (a
    /// read-only one is offered no action) and its first read's reply (nil: it reads itself),
    /// as JSON written into the page only through `appendInScript`.
    static func view(role: String, path: String, reply: ArraySlice<UInt8>?) -> HTTPResponse {
        var json: [UInt8] = Array(#"{"role":"#.utf8)
        JSONValue.writeString(role, to: &json)
        if let reply {
            json.append(contentsOf: #","path":"#.utf8)
            JSONValue.writeString(path, to: &json)
            json.append(contentsOf: #","reply":"#.utf8)
            json.append(contentsOf: reply)
        }
        json.append(UInt8(ascii: "}"))
        var body = pageHead
        body.append(contentsOf: #"<script id="first" type="application/json">"#.utf8)
        appendInScript(json, to: &body)
        body.append(contentsOf: "</script>".utf8)
        body.append(contentsOf: pageTail)
        return HTTPResponse(.ok, contentType: "text/html; charset=utf-8", headers: pageHeaders, body: body)
    }

    /// The one way anything from a request or the model is written into a page: JSON text
    /// with `<`, `>`, `&`, U+2028 and U+2029 as `\u` escapes, so that nothing in it can end
    /// the script element, open a tag or comment, or end a line of script. Those bytes stand
    /// only inside JSON strings, where the escapes read as the same characters.
    static func appendInScript(_ json: [UInt8], to body: inout [UInt8]) {
        var i = 0
        while i < json.count {
            let b = json[i]
            switch b {
            case UInt8(ascii: "<"): body.append(contentsOf: #"\u003c"#.utf8)
            case UInt8(ascii: ">"): body.append(contentsOf: #"\u003e"#.utf8)
            case UInt8(ascii: "&"): body.append(contentsOf: #"\u0026"#.utf8)
            case 0xE2 where i + 2 < json.count && json[i + 1] == 0x80 && (json[i + 2] == 0xA8 || json[i + 2] == 0xA9):
                body.append(contentsOf: (json[i + 2] == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8)
                i += 2
            default: body.append(b)
            }
            i += 1
        }
    }

    /// What every page is served with: never cached stale, and a Content-Security-Policy
    /// that lets only the server's own script and style run (no inline script, no event
    /// handler attribute, no other origin), so that markup that ever got into a page could
    /// not act.
    static let pageHeaders = [
        ("Cache-Control", "no-cache"),
        (
            "Content-Security-Policy",
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "same-origin"),
    ]

    static let style = Array(WebPage.css.utf8)
    /// The core, then the views, then the start (which needs both).
    static let script = Array((WebReplica.js + WebScript.js + WebViews.js + "start();\n").utf8)
}
