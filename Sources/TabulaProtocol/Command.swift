/// How an option is named in `SELECT`: by its value or by its 1-based position.
public enum OptionRef: Sendable, Hashable {
    case value(String)
    case index(Int)
}

/// What `FAV` does to the flag.
public enum FavAction: String, Sendable, Hashable {
    case toggle, on, off
}

/// The per-connection item filter.
public enum ItemFilter: String, Sendable, Hashable {
    case all, favorites
}

/// One `field=value` pair of `SET`.
public struct FieldAssignment: Sendable, Hashable {
    /// The field name, lower-cased.
    public var field: String
    /// The new value, as typed.
    public var value: String
    /// Makes a pair.
    public init(_ field: String, _ value: String) {
        self.field = field
        self.value = value
    }
}

/// A request as a typed value.
public enum Command: Sendable, Hashable {
    case help(verb: String?)
    case ping(String?)
    case quit
    case ls(path: String?, limit: Int?, after: String?)
    case show(path: String?)
    case cd(path: String?)
    case pwd
    case select(path: String, option: OptionRef)
    case add(path: String, args: [String])
    case set(path: String, fields: [FieldAssignment])
    case rm(path: String)
    case mv(path: String, position: Int)
    case fav(path: String, action: FavAction)
    case filter(ItemFilter?)
    case bands([String])
    case order(path: String)
    /// `snapshot`: the rows under the prefix first, when there is no `from` or it cannot be
    /// replayed; `progress`: a `* SYNCED` marker now and then (see Protocol.md, WATCH).
    case watch(prefix: String?, from: UInt64?, snapshot: Bool = false, progress: Bool = false)
    case unwatch(prefix: String?)
    case format(LineFormat?)
    case stats
    /// The connected clients (admin).
    case clients
    case complete(String)
    case auth(name: String, secret: String)
    case whoami
    /// Wait until the node has applied `rev`, at most `timeout` milliseconds.
    case sync(rev: UInt64, timeout: Int)
    /// A transaction: the connection queues its requests from `multi` until `exec` runs them
    /// as one, all or none, or `discard` drops them (see `TransactionQueue`).
    case multi, exec, discard

    /// Its verb.
    public var verb: Verb {
        switch self {
        case .help: return .help
        case .ping: return .ping
        case .quit: return .quit
        case .ls: return .ls
        case .show: return .show
        case .cd: return .cd
        case .pwd: return .pwd
        case .select: return .select
        case .add: return .add
        case .set: return .set
        case .rm: return .rm
        case .mv: return .mv
        case .fav: return .fav
        case .filter: return .filter
        case .bands: return .bands
        case .order: return .order
        case .watch: return .watch
        case .unwatch: return .unwatch
        case .format: return .format
        case .stats: return .stats
        case .clients: return .clients
        case .complete: return .complete
        case .sync: return .sync
        case .auth: return .auth
        case .whoami: return .whoami
        case .multi: return .multi
        case .exec: return .exec
        case .discard: return .discard
        }
    }

    /// Its verb's traits (from the Verb table).
    public var traits: VerbTraits {
        if case .bands(let args) = self { return verb.traits(hasArguments: !args.isEmpty) }
        return verb.traits()
    }

    /// Whether the command changes the shared state (and so needs durability before its reply).
    public var isWrite: Bool { traits.access == .write }
}
