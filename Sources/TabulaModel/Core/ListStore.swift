import TabulaProtocol

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

    /// Its row in `LS /`, counting only what `viewer` sees.
    func summary(seenBy viewer: Viewer) -> Row
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
    /// Where the entry at `ref` stands among its siblings, and its row when `withRow`
    /// (else `.null`: building a row costs more than finding the place; `ListPlacements`);
    /// nil when `ref` is no entry of an ordered list. A write whose event names the path the
    /// write was given leaves that path's `ref` naming the same entry (a ref is an id, or an
    /// index that only an addition or a removal shifts), so the entry's place after the write
    /// is read from the `ref` it was resolved to.
    func placement(of ref: Ref, withRow: Bool) -> Placed?
    /// Where the entry at `ref` stands among its siblings as `viewer`'s own `LS` of its parent
    /// shows them (1-based; in its section where the list has sections), or nil when `viewer`
    /// is not shown it or `ref` is no entry of an ordered list (`ViewPositions`).
    func position(of ref: Ref, seenBy viewer: Viewer) -> Int?
    /// How many children the row of the entry at `ref` counts as `viewer` sees them (a
    /// catalog branch's `children`, a menu section's `entries`); nil for a row with no count.
    func childCount(of ref: Ref, seenBy viewer: Viewer) -> Int?
    /// For an item: where it stands among its section's favourites (1-based), 0 when it is
    /// none; nil for anything else.
    func favoritePosition(of ref: Ref) -> Int?
    /// The number that names `ref` directly under the list (`/items/17`: 17), in a list that
    /// numbers its entries (`ChangeRevisions` keeps those by number); nil for anything else.
    func number(of ref: Ref) -> Int?
    /// Whether `viewer`, whose grants show `ref`'s path, is still not to know it exists (an
    /// order of a menu entry its grants deny): resolving, completion and suggestions skip it.
    func hides(_ ref: Ref, from viewer: Viewer) -> Bool
}

extension ListStore {
    /// Nothing beyond its path: what the grants show of a path is all they hide.
    public func hides(_ ref: Ref, from viewer: Viewer) -> Bool { false }

    /// `mutations` when this list records them, else nothing (and they are never built).
    func record(_ mutations: @autoclosure () -> [Mutation]) -> [Mutation] { recordsMutations ? mutations() : [] }

    public mutating func finishApplying() {}
    public func completions(for verb: Verb, argument index: Int, at ref: Ref) -> [String] { [] }
    public func places(bareNamed name: String) -> [Ref] { [] }
    public var bareNames: [String] { [] }
    public func orderLine(_ ref: Ref) -> (entry: String, title: String)? { nil }
    public func placement(of ref: Ref, withRow: Bool) -> Placed? { nil }
    public func position(of ref: Ref, seenBy viewer: Viewer) -> Int? { nil }
    public func childCount(of ref: Ref, seenBy viewer: Viewer) -> Int? { nil }
    public func favoritePosition(of ref: Ref) -> Int? { nil }
    public func number(of ref: Ref) -> Int? { nil }
}
