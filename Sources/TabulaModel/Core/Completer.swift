import TabulaProtocol

/// Completion candidates for a partial request line, from the one grammar of `Verb`,
/// so that every client completes the same way.
public enum Completer {
    /// Most candidates one completion answers (the first, in the list's order): a setting of
    /// 9,000 options costs one page, not 9,000 rows.
    public static let mostCandidates = 200

    /// Longest partial line completed, in bytes (a longer one gets no candidates).
    public static let longestLine = 4096

    /// Candidates for the last (possibly empty) word of `line`, each a whole word, quoted
    /// where needed; at most `mostCandidates`.
    public static func complete(_ line: String, model: Model, viewer: Viewer) -> [String] {
        guard line.utf8.count <= longestLine else { return [] }
        return Array(candidates(line, model: model, viewer: viewer).prefix(mostCandidates))
    }

    private static func candidates(_ line: String, model: Model, viewer: Viewer) -> [String] {
        let (done, partial) = split(line)
        guard let first = done.first else {
            let lower = partial.lowercased() == partial && !partial.isEmpty
            return Verb.allCases.map { lower ? $0.rawValue.lowercased() : $0.rawValue }.filter { $0.lowercased().hasPrefix(partial.lowercased()) }
        }
        guard let verb = Verb.named(first) else { return [] }
        let argIndex = done.count - 1
        let words: [String]
        switch (verb, argIndex) {
        case (.help, 0):
            return Verb.allCases.map(\.rawValue).filter { $0.lowercased().hasPrefix(partial.lowercased()) }
        case (.select, 1):
            guard case .success(let t) = model.resolve(done[1], viewer: viewer), viewer.reaches(model.path(of: t)) else { return [] }
            words = model.completions(for: .select, argument: 1, at: t)
        case (.fav, 1): words = ["on", "off"]
        case (.filter, 0): words = ["favorites", "all"]
        case (.format, 0): words = ["text", "json"]
        case (.watch, 1): words = ["FROM"]
        case (.ls, 1), (.ls, 3): words = ["LIMIT", "AFTER"]
        case (.order, 0):
            var seen = Set<String>()
            return (model.bareNames(for: viewer) + paths(partial, model: model, viewer: viewer)).filter { $0.hasPrefix(partial) && seen.insert($0).inserted }.map(Quoting.quote)
        case (.ls, 0), (.show, 0), (.cd, 0), (.select, 0), (.add, 0), (.set, 0), (.rm, 0), (.mv, 0), (.fav, 0), (.watch, 0), (.unwatch, 0):
            return paths(partial, model: model, viewer: viewer).map(Quoting.quote)
        default: return []
        }
        return words.filter { $0.lowercased().hasPrefix(partial.lowercased()) }.map(Quoting.quote)
    }

    /// Paths that extend `partial`: the names under its directory part, lists ending in `/`.
    static func paths(_ partial: String, model: Model, viewer: Viewer) -> [String] {
        let dir: String
        let stem: String
        if let slash = partial.lastIndex(of: "/") {
            dir = String(partial[...slash])
            stem = String(partial[partial.index(after: slash)...])
        } else {
            dir = ""
            stem = partial
        }
        guard case .success(let t) = model.resolve(dir.isEmpty ? "." : dir, viewer: viewer), model.isList(t) else { return [] }
        return model.childNames(of: t).filter {
            $0.name.lowercased().hasPrefix(stem.lowercased()) && model.child(of: t, named: $0.name, viewer: viewer) != nil
        }.map { dir + $0.name + ($0.isList ? "/" : "") }
    }

    /// The finished words and the word being typed (quotes opened in it are dropped).
    static func split(_ line: String) -> ([String], String) {
        var words: [String] = []
        var cur = ""
        var quote: Character?
        var inWord = false
        for ch in line {
            if let q = quote {
                if ch == q { quote = nil } else { cur.append(ch) }
            } else if ch == " " || ch == "\t" {
                if inWord { words.append(cur); cur = ""; inWord = false }
            } else if ch == "\"" || ch == "'" {
                quote = ch
                inWord = true
            } else {
                cur.append(ch)
                inWord = true
            }
        }
        if words.first?.hasPrefix("#") == true { words.removeFirst() }
        if words.isEmpty && cur.hasPrefix("#") && !inWord { cur = "" }
        return (words, cur)
    }
}
