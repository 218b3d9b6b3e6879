/// Every verb of the protocol. Its declaration (arguments, traits, help) is `spec`, in
/// VerbTable.swift: the one table that drives parsing, arity errors, `HELP`, suggestions,
/// completion and hints.
public enum Verb: String, Sendable, CaseIterable {
    case help = "HELP", ping = "PING", quit = "QUIT"
    case ls = "LS", show = "SHOW", cd = "CD", pwd = "PWD"
    case select = "SELECT", add = "ADD", set = "SET", rm = "RM", mv = "MV", fav = "FAV"
    case filter = "FILTER", bands = "BANDS", order = "ORDER"
    case watch = "WATCH", unwatch = "UNWATCH", format = "FORMAT", stats = "STATS", complete = "COMPLETE"
    case auth = "AUTH", whoami = "WHOAMI", sync = "SYNC", clients = "CLIENTS"
    case multi = "MULTI", exec = "EXEC", discard = "DISCARD"

    /// Its place in `allCases` (its declaration order): the one index of a verb, which the
    /// verb table and the per-verb counters use. A switch: a jump table, no hashing.
    public var ordinal: Int {
        switch self {
        case .help: return 0
        case .ping: return 1
        case .quit: return 2
        case .ls: return 3
        case .show: return 4
        case .cd: return 5
        case .pwd: return 6
        case .select: return 7
        case .add: return 8
        case .set: return 9
        case .rm: return 10
        case .mv: return 11
        case .fav: return 12
        case .filter: return 13
        case .bands: return 14
        case .order: return 15
        case .watch: return 16
        case .unwatch: return 17
        case .format: return 18
        case .stats: return 19
        case .complete: return 20
        case .auth: return 21
        case .whoami: return 22
        case .sync: return 23
        case .clients: return 24
        case .multi: return 25
        case .exec: return 26
        case .discard: return 27
        }
    }

    /// The verb named `word`, case-insensitively (no allocation: ASCII folded into a key,
    /// looked up by binary search: a handful of integer compares, no hashing).
    public static func named<S: StringProtocol>(_ word: S) -> Verb? {
        // A native string's bytes are read in place (iterating its UTF8View costs ~10 times more).
        guard let key = word.utf8.withContiguousStorageIfAvailable({ key($0) }) ?? key(word.utf8) else { return nil }
        return named(key: key)
    }

    /// The verb spelled by `word`, bytes of a request line, in any case.
    static func named(bytes word: ArraySlice<UInt8>) -> Verb? {
        key(word).flatMap(named(key:))
    }

    private static func named(key: UInt64) -> Verb? {
        var low = 0
        var high = byKey.count
        while low < high {
            let mid = (low + high) / 2
            if byKey[mid].key < key { low = mid + 1 } else { high = mid }
        }
        return low < byKey.count && byKey[low].key == key ? byKey[low].verb : nil
    }

    /// Every verb by its key, in the keys' order.
    private static let byKey: [(key: UInt64, verb: Verb)] =
        Verb.allCases.compactMap { v in key(v.rawValue.utf8).map { ($0, v) } }.sorted { $0.key < $1.key }

    private static func key<U: Collection>(_ bytes: U) -> UInt64? where U.Element == UInt8 {
        guard bytes.count <= 8 else { return nil }
        var k: UInt64 = 0
        for b in bytes {
            guard b < 128 else { return nil }
            k = k << 8 | UInt64(b >= 97 && b <= 122 ? b - 32 : b)
        }
        return k
    }

    /// The verb `word` most likely meant: one it begins (`sel` → SELECT), else the nearest
    /// within a third of its length; none for a word over `EditDistance.longestWord`
    /// characters (bounded cost, whatever was sent).
    public static func suggestion(for word: String) -> Verb? {
        EditDistance.closest(to: word, in: Verb.allCases.map(\.rawValue)).flatMap(Verb.named)
    }
}
