/// The live web view, built into the binary: one page for every list (the script picks the
/// view from the path), its style and its script. Nothing is fetched from elsewhere.
enum WebAssets {
    static let page = Array(WebPage.html.utf8)
    static let style = Array(WebPage.css.utf8)
    /// The core, then the views, then the start (which needs both).
    static let script = Array((WebScript.js + WebViews.js + "start();\n").utf8)
}
