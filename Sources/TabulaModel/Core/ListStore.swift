import TabulaProtocol

/// A place inside one list, in that list's own coordinates: `kind` says what it is (each
/// list has its own constants), `a` and `b` where (an index, an id). `Ref.top` is the list.
public struct Ref: Hashable, Sendable {
    /// What kind of place, as the list numbers them; 0 is the list itself.
    public var kind: UInt8
    /// The first coordinate (an index or an id).
    public var a: Int
    /// The second coordinate, for places two levels down.
    public var b: Int

    /// Makes one.
    public init(_ kind: UInt8, _ a: Int = 0, _ b: Int = 0) {
        self.kind = kind
        self.a = a
        self.b = b
    }

    /// The list itself.
    public static let top = Ref(0)
}

/// A change asked of one place of a list, its path already resolved.
public enum Write: Sendable {
    case select(OptionRef)
    case add([String])
    case set([FieldAssignment])
    case remove
    case move(to: Int)
    case favorite(FavAction)
    case bands([String])
    /// Append an order for a menu entry (`entry` is its path) to the order list.
    case order(entry: String, title: String)
}

/// One top-level list: a module that owns its part of the state, answers reads of it,
/// applies writes to it and says how durable storage keeps it. `Model` routes to it.
///
/// A list is a value: no I/O, no threads, no clock (time and randomness come in).
public protocol ListStore: Sendable {
    /// Its name under `/`, e.g. `settings`.
    static var name: String { get }
    /// How durable storage keeps it; its `Mutation`s name these tables and counters.
    static var schema: ListSchema { get }
    /// An empty list.
    init()
    /// Whether writes say what durable storage must write (off when nothing is stored:
    /// then no write spends time encoding rows nobody reads). `Model` sets it.
    var recordsMutations: Bool { get set }

    /// Its row in `LS /`.
    var summary: Row { get }
    /// Whether `LS` and `CD` treat `ref` as a list.
    func isList(_ ref: Ref) -> Bool
    /// The child of `ref` named `name` (any case), if there is one.
    func child(of ref: Ref, named name: String) -> Ref?
    /// The canonical path of `ref`.
    func path(of ref: Ref) -> String
    /// The names under `ref`, for suggestions and completion (the first `limit`).
    func childNames(of ref: Ref, limit: Int) -> [(name: String, isList: Bool)]
    /// `LS` of a list place, a page at a time; `after` names the last row of the previous page.
    func list(_ ref: Ref, limit: Int, after: String?, viewer: Viewer) throws -> Reply
    /// `SHOW`: everything about one place.
    func show(_ ref: Ref, viewer: Viewer) throws -> Reply
    /// Applies a write at `ref`: the reply, the event (revision still 0) and the mutations.
    /// Nil when this list takes no such write at that place.
    mutating func write(_ w: Write, at ref: Ref, viewer: Viewer, now: Double, rng: inout SplitMix64) throws -> Outcome?
    /// Applies a stored change of one of its tables (loading, or a change made elsewhere).
    mutating func apply(_ m: Mutation)
    /// Called after a run of `apply`: anything deferred is settled.
    mutating func finishApplying()
    /// Everything it holds, as mutations that rebuild it from empty, in order.
    func snapshot() -> [Mutation]

    /// Words that complete argument `index` of `verb` when the path argument is `ref`.
    func completions(for verb: Verb, argument index: Int, at ref: Ref) -> [String]
    /// Places that a request may name by a bare name instead of a path (ORDER margherita).
    func places(bareNamed name: String) -> [Ref]
    /// All bare names it offers, for completion.
    var bareNames: [String] { get }
    /// What ordering `ref` would append to the order list: its path and title.
    func orderLine(_ ref: Ref) -> (entry: String, title: String)?
}

extension ListStore {
    /// `mutations` when this list records them, else nothing (and they are never built).
    func record(_ mutations: @autoclosure () -> [Mutation]) -> [Mutation] { recordsMutations ? mutations() : [] }

    public mutating func finishApplying() {}
    public func completions(for verb: Verb, argument index: Int, at ref: Ref) -> [String] { [] }
    public func places(bareNamed name: String) -> [Ref] { [] }
    public var bareNames: [String] { [] }
    public func orderLine(_ ref: Ref) -> (entry: String, title: String)? { nil }
}

/// A row of `SHOW`: a field and its value.
func fieldRow(_ k: String, _ v: String, _ j: JSONValue) -> Row {
    Row(text: "\(k): \(v)", json: .object([("field", .string(k)), ("value", j)]))
}

/// A page of `all` for `LS`: `after` names the last row of the previous page.
func pageReply<T>(_ all: [T], path: String, limit: Int, after: String?, name: (T) -> String, row: (T) -> Row) throws -> Reply {
    var start = 0
    if let a = after {
        let lower = a.lowercased()
        guard let i = all.firstIndex(where: { name($0) == lower }) else { throw TabulaError(.notFound, "AFTER \(a): no such name in \(path)") }
        start = i + 1
    }
    let slice = all[min(start, all.count)..<min(start + limit, all.count)]
    var reply = Reply(rows: slice.map(row), message: "\(slice.count) of \(all.count)")
    if start + limit < all.count, let last = slice.last { reply.message += "; more: LS \(path) LIMIT \(limit) AFTER \(name(last))" }
    return reply
}

/// Lower-cases `name` only when it has upper-case ASCII (the common case allocates nothing).
func folded(_ name: String) -> String {
    name.utf8.contains { $0 >= 65 && $0 <= 90 } ? name.lowercased() : name
}
