/// One data line of a reply: its text for people and its JSON for scripts.
public struct Row: Sendable, Equatable {
    /// The text after the `- ` marker; one line, no line breaks.
    public var text: String
    /// The same row as a JSON value.
    public var json: JSONValue
    /// Makes a row.
    public init(text: String, json: JSONValue) {
        self.text = text
        self.json = json
    }
}
