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
    /// as JSON in which no `<` can end the script element.
    static func view(role: String, path: String, reply: ArraySlice<UInt8>?) -> HTTPResponse {
        var body = pageHead
        body.append(contentsOf: #"<script id="first" type="application/json">{"role":"#.utf8)
        JSONValue.writeString(role, to: &body)
        if let reply {
            body.append(contentsOf: #","path":"#.utf8)
            JSONValue.writeString(path, to: &body)
            body.append(contentsOf: #","reply":"#.utf8)
            for b in reply { if b == UInt8(ascii: "<") { body.append(contentsOf: #"\u003c"#.utf8) } else { body.append(b) } }
        }
        body.append(contentsOf: "}</script>".utf8)
        body.append(contentsOf: pageTail)
        return HTTPResponse(.ok, contentType: "text/html; charset=utf-8", headers: [("Cache-Control", "no-cache")], body: body)
    }

    static let style = Array(WebPage.css.utf8)
    /// The core, then the views, then the start (which needs both).
    static let script = Array((WebScript.js + WebViews.js + "start();\n").utf8)
}
