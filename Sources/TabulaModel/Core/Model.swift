import TabulaProtocol

/// The whole shared state: the lists in one path namespace, and the revision. A router: each
/// request's path picks a list, and the list does the rest.
///
/// Pure: no I/O, no threads, no clock (time and randomness are passed in).
public struct Model: Sendable {
    /// Every list, in the order `LS /` shows them. A new list is one more line here.
    public static let registered: [any ListStore.Type] = [
        SettingsList.self,
        CatalogList.self,
        ItemsList.self,
        MenuList.self,
        OrdersList.self,
    ]

    /// The top-level names.
    public static let roots = registered.map { $0.name }
    /// The default page size of `LS` on big lists.
    public static let defaultPage = 100
    /// The list that owns each table and counter, by name.
    static let owners: [String: Int] = {
        var d: [String: Int] = [:]
        for (i, l) in registered.enumerated() {
            for t in l.schema.tables { d[t.name] = i }
            for c in l.schema.counters { d[c] = i }
        }
        return d
    }()
    static let rootIndex: [String: Int] = Dictionary(
        uniqueKeysWithValues: roots.enumerated().map { ($0.element, $0.offset) })
    /// Where `/items` is in `lists` (looked up once: a write asks on every request).
    static let itemsIndex = rootIndex[ItemsList.name]!
    /// Where the other lists are (a change to one of their entries names it: `Outcome.entry`).
    static let ordersIndex = rootIndex[OrdersList.name]!
    static let settingsIndex = rootIndex[SettingsList.name]!
    static let catalogIndex = rootIndex[CatalogList.name]!
    static let menuIndex = rootIndex[MenuList.name]!

    /// The revision of the last change; every change adds one (a write that changes nothing
    /// adds nothing).
    public internal(set) var revision: UInt64 = 0
    /// The revision of each entry's last change (`IF REV`, SHOW's `rev`).
    public internal(set) var changes = ChangeRevisions()
    /// The lists, as registered.
    public internal(set) var lists: [any ListStore]
    /// Whether writes say what durable storage must write; off for a store that keeps
    /// nothing, so that no write encodes rows nobody reads.
    public var recordsMutations = true {
        didSet { for i in lists.indices { lists[i].recordsMutations = recordsMutations } }
    }

    /// The views events place their entries in besides the whole list's (`EventViews`): the
    /// grants of the users whose grants hide something. The server sets them from its users.
    public var eventViews = EventViews()

    /// An empty model.
    public init() { lists = Model.registered.map { $0.init() } }

    /// One empty model, shared: a placeholder that costs no allocation where a model is held.
    public static let empty = Model()

    /// The model rebuilt from stored state.
    public init(snapshot s: ModelSnapshot) {
        self.init()
        apply(s.mutations)
        revision = s.revision
        changes = ChangeRevisions(base: s.revision)
    }

    /// Everything, as storage would hold it.
    public var snapshot: ModelSnapshot {
        ModelSnapshot(revision: revision, mutations: lists.flatMap { $0.snapshot() })
    }

    /// Applies stored changes in order (a load, or changes another server made), each to the
    /// list that owns its table.
    public mutating func apply(_ mutations: [Mutation]) {
        var touched = Set<Int>()
        for m in mutations {
            guard let i = Model.owners[m.table] else { continue }
            lists[i].apply(m)
            touched.insert(i)
        }
        for i in touched.sorted() { lists[i].finishApplying() }
    }

    /// Applies the stored changes of revision `rev`, made elsewhere.
    public mutating func apply(_ mutations: [Mutation], revision rev: UInt64) {
        apply(mutations)
        revision = rev
    }

    /// Records changes made elsewhere (a cluster's other nodes), whose mutations `apply`
    /// took: each entry's revision follows them as it follows this node's own.
    public mutating func noteChanges(_ events: [Event]) {
        for e in events { changes.note(e) }
    }

    /// The list of type `L`.
    public subscript<L: ListStore>(_ type: L.Type) -> L {
        get {
            guard let i = Model.rootIndex[L.name], let l = lists[i] as? L else {
                fatalError("\(L.name) is not registered")
            }
            return l
        }
        set {
            guard let i = Model.rootIndex[L.name] else { fatalError("\(L.name) is not registered") }
            lists[i] = newValue
        }
    }

    // MARK: - Places

    /// The canonical path of a target.
    public func path(of t: Target) -> String {
        switch t {
        case .root: return "/"
        case .place(let i, let ref): return lists[i].path(of: ref)
        }
    }

    /// Whether `LS` and `CD` treat `t` as a list.
    public func isList(_ t: Target) -> Bool {
        switch t {
        case .root: return true
        case .place(let i, let ref): return lists[i].isList(ref)
        }
    }

    /// The names under a list target, for suggestions and completion (big lists give only their first names).
    public func childNames(of t: Target, limit: Int = 200) -> [(name: String, isList: Bool)] {
        switch t {
        case .root: return Model.roots.map { ($0, true) }
        case .place(let i, let ref): return lists[i].childNames(of: ref, limit: limit)
        }
    }

    /// The child named `name` of `t`.
    func child(of t: Target, named name: String) -> Target? {
        switch t {
        case .root:  // a handful of short names: compared in turn, faster than hashing one
            let lower = folded(name)
            return Model.roots.firstIndex(of: lower).map { .place(list: $0, .top) }
        case .place(let i, let ref):
            return lists[i].child(of: ref, named: name).map { .place(list: i, $0) }
        }
    }

    /// Words that complete argument `index` of `verb` whose path argument is `t`.
    public func completions(for verb: Verb, argument index: Int, at t: Target) -> [String] {
        guard case .place(let i, let ref) = t else { return [] }
        return lists[i].completions(for: verb, argument: index, at: ref)
    }

    /// Every name a request may use without a path (ORDER margherita).
    public var bareNames: [String] { lists.flatMap { $0.bareNames } }

    /// The bare names (or paths, where a name is not unique) of the places `viewer` may reach.
    public func bareNames(for viewer: Viewer) -> [String] {
        guard viewer.isRestricted else { return bareNames }
        return bareNames.filter { name in
            name.hasPrefix("/")
                ? viewer.reaches(name)
                : lists.indices.contains { i in
                    lists[i].places(bareNamed: name).contains { viewer.reaches(self.path(of: .place(list: i, $0))) }
                }
        }
    }
}
