/// One data line of a reply: its text for people and its JSON for scripts.
public struct Row: Sendable, Equatable {
    /// Rows are equal when they read the same (`path` is not part of what is sent).
    public static func == (a: Row, b: Row) -> Bool { a.line == b.line && a.json == b.json }

    /// The text after the `- ` marker; one line, no line breaks.
    public var text: String {
        get { line.string }
        set { line = LineText(newValue) }
    }
    /// The same text as kept: a `String`, or what writes it when it is sent (an item's row).
    public var line: LineText
    /// The same row as a JSON value.
    public var json: JSONValue
    /// The path the row names, when it names one (a child in a listing): what a user's
    /// grants are checked against. Never sent.
    public var path: RowPath?
    /// Makes a row.
    public init(text: String, json: JSONValue, path: RowPath? = nil) {
        self.init(line: LineText(text), json: json, path: path)
    }

    /// Makes a row whose text is kept as `line`.
    public init(line: LineText, json: JSONValue, path: RowPath? = nil) {
        self.line = line
        self.json = json
        self.path = path
    }
}

/// The path a row names, kept as its parent's path and its own name and joined only when
/// read: every reply builds rows, only a user with grants reads their paths.
public struct RowPath: Sendable {
    private enum Leaf: Sendable {
        case name(String)
        case number(Int)
    }

    private let parent: String
    private let leaf: Leaf

    /// `parent/name`.
    public init(_ parent: String, _ name: String) {
        self.parent = parent
        leaf = .name(name)
    }

    /// `parent/number`.
    public init(_ parent: String, number: Int) {
        self.parent = parent
        leaf = .number(number)
    }

    /// The whole path.
    public var string: String {
        let base = parent == "/" ? "" : parent
        switch leaf {
        case .name(let n): return base + "/" + n
        case .number(let n): return base + "/" + String(n)
        }
    }
}
