import TabulaProtocol

/// Completion candidates for a partial request line, from the one grammar of `Verb`,
/// so that every client completes the same way.
public enum Completer {
    /// Most candidates one completion answers (the first, in the list's order): a setting of
    /// 9,000 options costs one page, not 9,000 rows.
    public static let mostCandidates = 200
    /// Most children of one list looked at for those that start with what is typed (a list
    /// of 300 children completes `n29` to its 11, not to the one among its first 200). Kept
    /// near a page's cost, since COMPLETE runs under the read lock and may be pipelined:
    /// at 10,000 one cost 0.62 ms, so 128 of them held the lock 80 ms.
    public static let mostScanned = 1_000

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
            return Verb.allCases.map { lower ? $0.rawValue.lowercased() : $0.rawValue }.filter {
                $0.lowercased().hasPrefix(partial.lowercased())
            }
        }
        guard let verb = Verb.named(first) else { return [] }
        let (expected, given) = VerbGrammar.expected(verb.spec, after: Array(done.dropFirst()))
        var out: [String] = []
        for e in expected {
            switch e {
            case .keyword(let k): if k.lowercased().hasPrefix(partial.lowercased()) { out.append(k) }
            case .value(let a):
                out += values(a, verb: verb, partial: partial, given: given, model: model, viewer: viewer)
            }
        }
        var seen = Set<String>()
        return out.filter { seen.insert($0).inserted }
    }

    /// The words argument `a` takes that extend `partial`, from the model as `viewer` sees it.
    static func values(
        _ a: Argument, verb: Verb, partial: String, given: [String: String], model: Model, viewer: Viewer
    ) -> [String] {
        let lower = partial.lowercased()
        func starting(_ words: [String]) -> [String] {
            words.filter { $0.lowercased().hasPrefix(lower) }.map(Quoting.quote)
        }
        switch a.kind {
        case .verb: return starting(Verb.allCases.map(\.rawValue))
        case .choice(let words):
            // The favourites filter is offered only while there is a favourite (as the seed does).
            let offered =
                verb == .filter && !model[ItemsList.self].hasFavorites(seenBy: viewer)
                ? words.filter { $0 != "favorites" } : words
            return starting(offered)
        case .path(let kind):
            let paths = Completer.paths(partial, model: model, viewer: viewer, kind: kind).map(Quoting.quote)
            return kind == .menuEntry ? starting(model.bareNames(for: viewer)) + paths : paths
        case .option:
            guard let setting = given["setting"], case .success(let t) = model.resolve(setting, viewer: viewer),
                viewer.reaches(model.path(of: t))
            else { return [] }
            return starting(model.completions(for: .select, argument: 1, at: t))
        case .field:
            guard let path = given["path"], case .success(let t) = model.resolve(path, viewer: viewer),
                viewer.reaches(model.path(of: t))
            else { return [] }
            return model.completions(for: .set, argument: 1, at: t).filter { $0.lowercased().hasPrefix(lower) }
        case .childName:
            guard case .success(let t) = model.resolve(given["path"] ?? ".", viewer: viewer), model.isList(t) else {
                return []
            }
            let names = model.childNames(of: t, limit: mostScanned).lazy.filter {
                !$0.isList && $0.name.lowercased().hasPrefix(lower)
            }
            return names.filter { model.child(of: t, named: $0.name, viewer: viewer) != nil }.prefix(mostCandidates).map
            { Quoting.quote($0.name) }
        case .number, .text, .rest, .flag: return []
        }
    }

    /// Paths that extend `partial`: the names under its directory part, lists ending in `/`.
    /// For a path of a given kind, only what leads to one: a setting, an item or a menu entry
    /// is a whole word (the argument ends there), not a list to go into.
    static func paths(_ partial: String, model: Model, viewer: Viewer, kind: Argument.PathKind = .any) -> [String] {
        let dir: String
        let stem: String
        if let slash = partial.lastIndex(of: "/") {
            dir = String(partial[...slash])
            stem = String(partial[partial.index(after: slash)...])
        } else {
            dir = ""
            stem = partial
        }
        guard case .success(let t) = model.resolve(dir.isEmpty ? "." : dir, viewer: viewer), model.isList(t) else {
            return []
        }
        var out: [String] = []
        let typed = stem.lowercased()
        for c in model.childNames(of: t, limit: mostScanned) where c.name.lowercased().hasPrefix(typed) {
            if out.count >= mostCandidates { break }
            guard let child = model.child(of: t, named: c.name, viewer: viewer) else { continue }
            // SET takes only what has fields (a setting's option has none).
            if kind == .settable && !c.isList && model.completions(for: .set, argument: 1, at: child).isEmpty {
                continue
            }
            switch Completer.fits(model.path(of: child), isList: c.isList, kind: kind) {
            case .target: out.append(dir + c.name)
            case .way: out.append(dir + c.name + "/")
            case .neither: continue
            }
        }
        return out
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

extension Completer {
    /// How a path fits an argument of `kind`: the thing it takes, a list on the way to one,
    /// or neither (completion then does not offer it).
    enum Fit { case target, way, neither }

    static func fits(_ path: String, isList: Bool, kind: Argument.PathKind) -> Fit {
        func under(_ root: String) -> Bool { path == root || path.hasPrefix(root + "/") }
        func toward(_ root: String) -> Bool { root.hasPrefix(path == "/" ? "/" : path + "/") }
        switch kind {
        case .any: return isList ? .way : .target
        case .list: return isList ? .way : .neither
        case .changeable, .settable: return isList ? .way : .target
        case .setting:
            if path == "/settings" { return .way }
            if under("/settings") { return path.split(separator: "/").count == 2 ? .target : .neither }
            return toward("/settings") ? .way : .neither
        case .item:
            // items by id, not by section
            if under("/items") { return isList ? (path == "/items" ? .way : .neither) : .target }
            return toward("/items") ? .way : .neither
        case .menuEntry:
            if under("/menu") { return isList ? .way : .target }
            return toward("/menu") ? .way : .neither
        }
    }
}
