/// Every verb of the protocol, with its grammar and help text: the one table that drives
/// parsing, arity errors, `HELP`, suggestions and completion.
public enum Verb: String, Sendable, CaseIterable {
    case help = "HELP", ping = "PING", quit = "QUIT"
    case ls = "LS", show = "SHOW", cd = "CD", pwd = "PWD"
    case select = "SELECT", add = "ADD", set = "SET", rm = "RM", mv = "MV", fav = "FAV"
    case filter = "FILTER", bands = "BANDS", order = "ORDER"
    case watch = "WATCH", unwatch = "UNWATCH", format = "FORMAT", stats = "STATS", complete = "COMPLETE"

    /// The fewest and most arguments after the verb (`Int.max` for any number).
    public var arity: ClosedRange<Int> {
        switch self {
        case .help: return 0...1
        case .ping: return 0...1
        case .quit, .pwd, .stats: return 0...0
        case .ls: return 0...5
        case .show: return 0...1
        case .cd: return 0...1
        case .select: return 2...2
        case .add: return 1...Int.max
        case .set: return 2...Int.max
        case .rm: return 1...1
        case .mv: return 2...2
        case .fav: return 1...2
        case .filter: return 0...1
        case .bands: return 0...Int.max
        case .order: return 1...1
        case .watch: return 0...3
        case .unwatch: return 0...1
        case .format: return 0...1
        case .complete: return 0...Int.max
        }
    }

    /// How the verb is written.
    public var usage: String {
        switch self {
        case .help: return "HELP [verb]"
        case .ping: return "PING [text]"
        case .quit: return "QUIT"
        case .ls: return "LS [path] [LIMIT n] [AFTER name]"
        case .show: return "SHOW [path]"
        case .cd: return "CD [path]"
        case .pwd: return "PWD"
        case .select: return "SELECT setting option|#index"
        case .add: return "ADD path args…"
        case .set: return "SET path field=value…"
        case .rm: return "RM path"
        case .mv: return "MV item position"
        case .fav: return "FAV item [on|off]"
        case .filter: return "FILTER [favorites|all]"
        case .bands: return "BANDS [title bound title …]"
        case .order: return "ORDER menu-entry"
        case .watch: return "WATCH [prefix] [FROM rev]"
        case .unwatch: return "UNWATCH [prefix]"
        case .format: return "FORMAT [text|json]"
        case .stats: return "STATS"
        case .complete: return "COMPLETE partial-line"
        }
    }

    /// One line on what the verb does.
    public var summary: String {
        switch self {
        case .help: return "list the verbs, or explain one"
        case .ping: return "check the connection; replies OK PONG or the text given"
        case .quit: return "say goodbye and close the connection"
        case .ls: return "list what is under a path, a page at a time"
        case .show: return "show one thing in full"
        case .cd: return "change this connection's current path (no path: back to /)"
        case .pwd: return "print this connection's current path"
        case .select: return "select a setting's option by value or by #index (1-based)"
        case .add: return "add a setting, option, catalog node, item, menu section or entry"
        case .set: return "change fields of a setting, catalog node, item or menu entry"
        case .rm: return "remove a thing (RM /orders clears the order list)"
        case .mv: return "move an item to a 1-based position within its price section"
        case .fav: return "toggle an item's favourite flag, or set it on or off"
        case .filter: return "show all items or favourites only (this connection only)"
        case .bands: return "show or set the price bands that split /items into sections"
        case .order: return "append a menu entry to the live order list"
        case .watch: return "receive every change under a path as a push, optionally replaying from a revision"
        case .unwatch: return "stop watching a prefix, or everything"
        case .format: return "reply in text lines or one JSON object per line"
        case .stats: return "server counters"
        case .complete: return "completion candidates for a partial request line"
        }
    }

    /// The verb named `word`, case-insensitively (no allocation: ASCII folded into a key).
    public static func named<S: StringProtocol>(_ word: S) -> Verb? {
        guard let key = key(word.utf8) else { return nil }
        return byKey[key]
    }

    private static let byKey: [UInt64: Verb] = {
        var d: [UInt64: Verb] = [:]
        for v in Verb.allCases { if let k = key(v.rawValue.utf8) { d[k] = v } }
        return d
    }()

    private static func key<U: Collection>(_ bytes: U) -> UInt64? where U.Element == UInt8 {
        guard bytes.count <= 8 else { return nil }
        var k: UInt64 = 0
        for b in bytes {
            guard b < 128 else { return nil }
            k = k << 8 | UInt64(b >= 97 && b <= 122 ? b - 32 : b)
        }
        return k
    }

    /// The closest verb to a misspelt word, if one is close enough to suggest.
    public static func suggestion(for word: String) -> Verb? {
        let upper = word.uppercased()
        let scored = Verb.allCases.map { ($0, EditDistance.between(upper, $0.rawValue)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(1, upper.count / 3) ? best.0 : nil
    }
}

/// Levenshtein distance, for "did you mean" suggestions.
public enum EditDistance {
    /// The number of single-character edits (insert, delete, replace, or swap of two
    /// neighbours, the commonest typo) that turn `a` into `b`.
    public static func between(_ a: String, _ b: String) -> Int {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var before = [Int](repeating: 0, count: y.count + 1)
        var prev = Array(0...y.count)
        var cur = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            cur[0] = i
            for j in 1...y.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { cur[j] = min(cur[j], before[j - 2] + 1) }
            }
            (before, prev, cur) = (prev, cur, before)
        }
        return prev[y.count]
    }

    /// The candidate closest to `word`, if it is close enough to be a likely typo.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let lower = word.lowercased()
        var best: (String, Int)?
        for c in candidates {
            let d = between(lower, c.lowercased())
            if let b = best, b.1 <= d { continue }
            best = (c, d)
        }
        guard let (c, d) = best else { return nil }
        return d <= max(1, word.count / 3) || c.lowercased().hasPrefix(lower) ? c : nil
    }
}
