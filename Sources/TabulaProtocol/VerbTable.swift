/// What one argument of a verb is: enough for arity checks, usage lines, HELP, completion
/// and hints to follow from one declaration (redis's `commands.def` does the same).
public struct Argument: Sendable, Equatable {
    /// What kind of word it takes.
    public enum Kind: Sendable, Equatable {
        /// A path of the given kind.
        case path(PathKind)
        /// One of a setting's options (after the setting's path), or `#index`.
        case option
        /// `field=value` of the path's list.
        case field
        /// A number.
        case number
        /// One of these words.
        case choice([String])
        /// A verb's name.
        case verb
        /// A name among the path's children (`AFTER name`).
        case childName
        /// Free text (a title, a user name, a secret).
        case text
        /// The rest of the line, raw (COMPLETE's partial line).
        case rest
        /// Its keyword alone, with no value (`SNAPSHOT`).
        case flag
    }

    /// The kinds of paths an argument names, so completion offers only what the verb takes.
    public enum PathKind: Sendable, Equatable {
        /// Anything (LS, SHOW, WATCH): lists and leaves.
        case any
        /// A list one can enter or add under (CD, ADD).
        case list
        /// A setting (SELECT).
        case setting
        /// An item (MV, FAV).
        case item
        /// A menu entry, by path or by bare name (ORDER).
        case menuEntry
        /// Something that can be removed (RM).
        case changeable
        /// Something with fields to SET.
        case settable
    }

    /// How the usage line writes it: `path`, `n`, `on|off`.
    public let name: String
    public let kind: Kind
    /// The keyword that introduces it (`LIMIT n`), if any.
    public let keyword: String?
    public let optional: Bool
    /// It may be given any number of times (at least once unless optional).
    public let repeated: Bool

    public init(_ name: String, _ kind: Kind, keyword: String? = nil, optional: Bool = false, repeated: Bool = false) {
        self.name = name
        self.kind = kind
        self.keyword = keyword
        self.optional = optional
        self.repeated = repeated
    }

    /// Words it takes on the line: its keyword's and its value.
    var width: Int { (keyword.map { $0.split(separator: " ").count } ?? 0) + (kind == .flag ? 0 : 1) }

    /// `IF REV n`, the condition every write verb takes last (see `Request.ifRev`).
    public static let condition = Argument("n", .number, keyword: "IF REV", optional: true)

    /// Whether this is the condition.
    public var isCondition: Bool { keyword == "IF REV" }

    /// How the usage line writes it: `[LIMIT n]`, `field=value…`.
    public var usage: String {
        if kind == .rest { return name }
        if kind == .flag { return optional ? "[\(name)]" : name }
        let core = (keyword.map { "\($0) " } ?? "") + name + (repeated && !name.hasSuffix("…") ? "…" : "")
        return optional ? "[\(core)]" : core
    }
}

/// One verb's declaration: its arguments in order, its traits and its help.
public struct VerbSpec: Sendable {
    public let arguments: [Argument]
    public let traits: VerbTraits
    /// Its traits when given arguments, when they differ (BANDS with bands changes them).
    public let traitsWithArguments: VerbTraits?
    public let summary: String

    /// The fewest and most words after the verb (`Int.max`: any number), from `arguments`,
    /// the condition (`IF REV n`, taken off before the count) left out.
    public let arity: ClosedRange<Int>
    /// Whether it takes `IF REV n` (every write verb does).
    public let conditional: Bool

    /// A write verb's arguments get the condition after them.
    init(_ arguments: [Argument], _ traits: VerbTraits, withArguments: VerbTraits? = nil, _ summary: String) {
        let writes = traits.access == .write || withArguments?.access == .write
        self.arguments = arguments + (writes ? [Argument.condition] : [])
        self.traits = traits
        self.traitsWithArguments = withArguments
        self.summary = summary
        conditional = writes
        let least = arguments.filter { !$0.optional }.reduce(0) { $0 + $1.width }
        let most = arguments.contains { $0.repeated } ? Int.max : arguments.reduce(0) { $0 + $1.width }
        arity = least...most
    }
}

extension Verb {
    /// Every verb's declaration: the one table parsing checks, usage errors, HELP, COMPLETE,
    /// the client's completion and hints, and Protocol.md's verb list follow. Built once
    /// (every request asks for its verb's traits and arity; building a spec allocates).
    public var spec: VerbSpec { _read { yield Verb.table[ordinal] } }  // lent, not copied

    /// The declarations in `allCases` order.
    private static let table: [VerbSpec] = Verb.allCases.map(\.declaration)

    private var declaration: VerbSpec {
        switch self {
        case .help:
            return VerbSpec(
                [Argument("verb", .verb, optional: true)],
                VerbTraits(.connection, permission: .none, beforeLogin: true, overHTTP: true),
                "list the verbs, or explain one")
        case .ping:
            return VerbSpec(
                [Argument("text", .text, optional: true)],
                VerbTraits(.connection, permission: .none, beforeLogin: true, whileSubscribed: true, overHTTP: true),
                "check the connection; replies OK PONG or the text given")
        case .quit:
            return VerbSpec(
                [], VerbTraits(.connection, permission: .none, beforeLogin: true, whileSubscribed: true),
                "say goodbye and close the connection")
        case .ls:
            return VerbSpec(
                [
                    Argument("path", .path(.any), optional: true),
                    Argument("n", .number, keyword: "LIMIT", optional: true),
                    Argument("name", .childName, keyword: "AFTER", optional: true),
                ],
                VerbTraits(.read, cacheable: true, permission: .read), "list what is under a path, a page at a time")
        case .show:
            return VerbSpec(
                [Argument("path", .path(.any), optional: true)], VerbTraits(.read, cacheable: true, permission: .read),
                "show one thing in full")
        case .cd:
            return VerbSpec(
                [Argument("path", .path(.list), optional: true)], VerbTraits(.session, permission: .read),
                "change this connection's current path (no path: back to /)")
        case .pwd: return VerbSpec([], VerbTraits(.session, permission: .read), "print this connection's current path")
        case .select:
            return VerbSpec(
                [Argument("setting", .path(.setting)), Argument("option|#index", .option)],
                VerbTraits(.write, permission: .write), "select a setting's option by value or by #index (1-based)")
        case .add:
            return VerbSpec(
                [Argument("path", .path(.list)), Argument("args", .text, optional: true, repeated: true)],
                VerbTraits(.write, permission: .write),
                "add a setting, option, catalog node, item, menu section or entry")
        case .set:
            return VerbSpec(
                [Argument("path", .path(.settable)), Argument("field=value", .field, repeated: true)],
                VerbTraits(.write, permission: .write), "change fields of a setting, catalog node, item or menu entry")
        case .rm:
            return VerbSpec(
                [Argument("path", .path(.changeable))], VerbTraits(.write, permission: .write),
                "remove a thing (RM /orders clears the order list)")
        case .mv:
            return VerbSpec(
                [Argument("item", .path(.item)), Argument("position", .number)], VerbTraits(.write, permission: .write),
                "move an item to a 1-based position within its price section")
        case .fav:
            return VerbSpec(
                [Argument("item", .path(.item)), Argument("on|off", .choice(["on", "off"]), optional: true)],
                VerbTraits(.write, permission: .write), "toggle an item's favourite flag, or set it on or off")
        case .filter:
            return VerbSpec(
                [Argument("favorites|all", .choice(["favorites", "all"]), optional: true)],
                VerbTraits(.session, permission: .read), "show all items or favourites only (this connection only)")
        case .bands:
            return VerbSpec(
                [Argument("title bound title …", .text, optional: true, repeated: true)],
                VerbTraits(.read, cacheable: true, permission: .read),
                withArguments: VerbTraits(.write, permission: .admin),
                "show or set the price bands that split /items into sections")
        case .order:
            return VerbSpec(
                [Argument("menu-entry", .path(.menuEntry))], VerbTraits(.write, permission: .write),
                "append a menu entry to the live order list")
        case .watch:
            return VerbSpec(
                [
                    Argument("prefix", .path(.any), optional: true),
                    Argument("rev", .number, keyword: "FROM", optional: true),
                    Argument("SNAPSHOT", .flag, keyword: "SNAPSHOT", optional: true),
                    Argument("PROGRESS", .flag, keyword: "PROGRESS", optional: true),
                ], VerbTraits(.session, permission: .read, readsModel: true, whileSubscribed: true),
                "receive every change under a path as a push, replaying from a revision, or first the rows as they are (SNAPSHOT); PROGRESS: a revision marker every so often"
            )
        case .unwatch:
            return VerbSpec(
                [Argument("prefix", .path(.any), optional: true)],
                VerbTraits(.session, permission: .read, whileSubscribed: true), "stop watching a prefix, or everything")
        case .format:
            return VerbSpec(
                [Argument("text|json", .choice(["text", "json"]), optional: true)],
                VerbTraits(.connection, permission: .read), "reply in text lines or one JSON object per line")
        case .stats: return VerbSpec([], VerbTraits(.read, permission: .admin, readsModel: false), "server counters")
        case .clients:
            return VerbSpec(
                [], VerbTraits(.read, permission: .admin, readsModel: false),
                "the connected clients: id, address, transport, user, age, idle, watches, output queued")
        case .complete:
            return VerbSpec(
                [Argument("partial-line", .rest, optional: true, repeated: true)],
                VerbTraits(.read, cacheable: true, permission: .read),
                "completion candidates for a partial request line")
        case .auth:
            return VerbSpec(
                [Argument("name", .text), Argument("secret", .text)],
                VerbTraits(.connection, permission: .none, beforeLogin: true),
                "log in as a user of the server's users file")
        case .whoami:
            return VerbSpec(
                [], VerbTraits(.connection, permission: .read, overHTTP: true),
                "name the user this connection acts as, its role and grants")
        case .multi:
            return VerbSpec(
                [], VerbTraits(.connection, permission: .read),
                "begin a transaction: the requests until EXEC are queued, then run as one")
        case .exec:
            return VerbSpec(
                [], VerbTraits(.connection, permission: .read),
                "run the queued requests as one: all applied, or none and why")
        case .discard:
            return VerbSpec([], VerbTraits(.connection, permission: .read), "drop the requests queued since MULTI")
        case .sync:
            return VerbSpec(
                [Argument("rev", .number), Argument("ms", .number, keyword: "TIMEOUT", optional: true)],
                VerbTraits(.read, permission: .read),
                "wait until this node has applied revision rev (read another node's write here)")
        }
    }

    /// How the verb is written, from its arguments: `LS [path] [LIMIT n] [AFTER name]`.
    public var usage: String { ([rawValue] + spec.arguments.map(\.usage)).joined(separator: " ") }

    /// One line on what the verb does.
    public var summary: String { spec.summary }

    /// The fewest and most arguments after the verb (`Int.max` for any number).
    public var arity: ClosedRange<Int> { spec.arity }

    /// What the verb touches, what it may cache and what it needs permission for: the one
    /// place a request is classified. Only `BANDS` depends on its arguments (without them
    /// it lists, with them it changes every item's section).
    public func traits(hasArguments: Bool = false) -> VerbTraits {
        hasArguments ? spec.traitsWithArguments ?? spec.traits : spec.traits
    }
}
