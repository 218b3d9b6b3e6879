/// One data line of a reply: its text for people and its JSON for scripts.
public struct Row: Sendable, Equatable {
    /// Rows are equal when they read the same (`path` is not part of what is sent).
    public static func == (a: Row, b: Row) -> Bool { a.text == b.text && a.json == b.json }

    /// The text after the `- ` marker; one line, no line breaks.
    public var text: String
    /// The same row as a JSON value.
    public var json: JSONValue
    /// The path the row names, when it names one (a child in a listing, a completed path):
    /// what a user's grants are checked against. Never sent.
    public var path: String?
    /// Makes a row.
    public init(text: String, json: JSONValue, path: String? = nil) {
        self.text = text
        self.json = json
        self.path = path
    }
}
