import TabulaProtocol

/// How a batch line is read — one rule, the same at the prompt and in scripts:
/// - blank, or starting with `--`: nothing;
/// - starting with `#`: a comment, unless it is a tagged request, `#TAG VERB …` with a
///   verb the server knows (so `#comment`, `# comment` and `#todo fix this` are comments);
/// - starting with `\`: a meta-command; an unquoted ` #` after its name starts a comment;
/// - anything else: a request, sent as typed.
public enum ScriptLine: Equatable, Sendable {
    case nothing
    case meta(name: String, arguments: String)
    case request(String)

    public static func read(_ line: String) -> ScriptLine {
        let trimmed = String(line.drop { $0 == " " || $0 == "\t" })
        if trimmed.isEmpty || trimmed.hasPrefix("--") { return .nothing }
        if trimmed.hasPrefix("#") {
            let words = trimmed.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            guard words.count >= 2, words[0].count > 1, Verb.named(words[1]) != nil else { return .nothing }
            return .request(trimmed)
        }
        guard trimmed.hasPrefix("\\") else { return .request(trimmed) }
        let body = withoutComment(trimmed)
        let name = body.prefix { $0 != " " && $0 != "\t" }
        let rest = body.dropFirst(name.count).drop { $0 == " " || $0 == "\t" }
        return .meta(name: String(name), arguments: String(rest))
    }

    /// `s` up to an unquoted ` #` (whitespace before it), its trailing blanks dropped.
    static func withoutComment(_ s: String) -> String {
        var quote: Character?
        var previous: Character = " "
        var end = s.endIndex
        for i in s.indices {
            let c = s[i]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "#" && (previous == " " || previous == "\t") {
                end = i
                break
            }
            previous = c
        }
        return String(s[..<end].reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
