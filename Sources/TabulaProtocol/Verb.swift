/// Every verb of the protocol, with its grammar and help text: the one table that drives
/// parsing, arity errors, `HELP`, suggestions and completion.
public enum Verb: String, Sendable, CaseIterable {
    case help = "HELP", ping = "PING", quit = "QUIT"
    case ls = "LS", show = "SHOW", cd = "CD", pwd = "PWD"
    case select = "SELECT", add = "ADD", set = "SET", rm = "RM", mv = "MV", fav = "FAV"
    case filter = "FILTER", bands = "BANDS", order = "ORDER"
    case watch = "WATCH", unwatch = "UNWATCH", format = "FORMAT", stats = "STATS", complete = "COMPLETE"
    case auth = "AUTH", whoami = "WHOAMI", sync = "SYNC"

    /// What the verb touches, what it may cache and what it needs permission for: the one
    /// place a request is classified. Only `BANDS` depends on its arguments (without them
    /// it lists, with them it changes every item's section).
    public func traits(hasArguments: Bool = false) -> VerbTraits {
        switch self {
        case .ping, .help, .quit, .auth: return VerbTraits(.connection, permission: .none)
        case .whoami: return VerbTraits(.connection, permission: .read)
        case .sync: return VerbTraits(.read, permission: .read)
        case .format: return VerbTraits(.connection, permission: .read)
        case .cd, .pwd, .filter, .unwatch: return VerbTraits(.session, permission: .read)
        case .watch: return VerbTraits(.session, permission: .read)
        case .ls, .show, .complete: return VerbTraits(.read, cacheable: true, permission: .read)
        case .stats: return VerbTraits(.read, permission: .admin)
        case .bands where !hasArguments: return VerbTraits(.read, cacheable: true, permission: .read)
        case .bands: return VerbTraits(.write, permission: .admin, onCopy: true)
        case .select, .add, .set, .rm, .mv, .fav, .order: return VerbTraits(.write, permission: .write)
        }
    }

    /// The fewest and most arguments after the verb (`Int.max` for any number).
    public var arity: ClosedRange<Int> {
        switch self {
        case .help: return 0...1
        case .ping: return 0...1
        case .quit, .pwd, .stats, .whoami: return 0...0
        case .auth: return 2...2
        case .sync: return 1...3
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
        case .auth: return "AUTH name secret"
        case .whoami: return "WHOAMI"
        case .sync: return "SYNC rev [TIMEOUT ms]"
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
        case .auth: return "log in as a user of the server's users file"
        case .whoami: return "name the user this connection acts as, its role and grants"
        case .sync: return "wait until this node has applied revision rev (read another node's write here)"
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
    /// The verb `word` most likely meant: one it begins (`sel` → SELECT), else the nearest
    /// within a third of its length; none for a word over `EditDistance.longestWord`
    /// characters (bounded cost, whatever was sent).
    public static func suggestion(for word: String) -> Verb? {
        EditDistance.closest(to: word, in: Verb.allCases.map(\.rawValue)).flatMap(Verb.named)
    }
}
