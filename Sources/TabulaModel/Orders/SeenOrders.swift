/// The orders one viewer with grants is shown, reduced to what can hide them: the menu
/// entries its grants deny that have orders (an order of a denied entry is, for it, an order
/// never made; `OrderBook` keeps each entry's orders in id order), and the orders its
/// prefixes name (`ChildGrants` of `/orders`). With H such entries and named orders, its
/// count costs O(H log n), where an order stands among the seen ones O(H log n), and a page
/// of `limit` O(limit · H log² n) at most, however many hidden orders lie in its way: it
/// never walks past them.
struct SeenOrders {
    private let book: OrderBook
    private let hiddenEntries: Set<String>
    private let children: ChildGrants
    /// The ids of the orders whose visibility differs from the default (`children`).
    private let differing: Set<Int>
    /// The ids of the orders hidden by their name alone (not by their entry), ascending.
    private let hiddenByName: [Int]
    /// How many it sees.
    private(set) var count = 0

    init(_ book: OrderBook, grants: Grants) {
        self.book = book
        let hiddenEntries = Set(book.entries.filter { grants.denies($0) })
        self.hiddenEntries = hiddenEntries
        children = ChildGrants(grants, list: "/orders")
        differing = Set(children.numberedExceptions)
        hiddenByName =
            children.shownByDefault
            ? differing.filter { id in book.order(id).map { !hiddenEntries.contains($0.entry) } ?? false }.sorted() : []
        count = children.shownByDefault ? book.count - hidden(below: Int.max) : named.count { $0.seen }
    }

    func sees(_ o: Order) -> Bool {
        (hiddenEntries.isEmpty || !hiddenEntries.contains(o.entry))
            && differing.contains(o.id) != children.shownByDefault
    }

    /// The orders its prefixes name that exist, and whether each is seen.
    private var named: [(order: Order, seen: Bool)] { differing.compactMap { book.order($0) }.map { ($0, sees($0)) } }

    /// How many orders with an id below `id` are hidden (only where `children` shows by default).
    private func hidden(below id: Int) -> Int {
        let byEntry = hiddenEntries.reduce(0) { $0 + book.countBelow(id, of: $1) }
        return byEntry + hiddenByName.count { $0 < id }
    }

    /// Where order `id` stands among the seen orders (1-based), or nil when it is not seen.
    func position(of id: Int) -> Int? {
        guard let o = book.order(id), sees(o), let p = book.position(of: id) else { return nil }
        guard children.shownByDefault else {
            return named.count { $0.seen && (book.position(of: $0.order.id) ?? .max) < p } + 1
        }
        return seen(amongFirst: p + 1)
    }

    /// How many seen orders stand among the first `position` orders of the whole list.
    private func seen(amongFirst position: Int) -> Int {
        guard position > 0, let last = book.order(at: position - 1) else { return 0 }
        return position - hidden(below: last.id) - (sees(last) ? 0 : 1)
    }

    /// The position in the whole list of the seen order with `rank` seen orders before it,
    /// or nil past the last: a binary search over positions, O(log n · H log n).
    private func position(ofRank rank: Int) -> Int? {
        guard rank < count else { return nil }
        var low = rank, high = book.count - 1
        while low < high {
            let mid = (low + high) / 2
            if seen(amongFirst: mid + 1) > rank { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// Up to `limit` seen orders after position `start` of the whole list (0: from the
    /// first), whether another seen order follows them, and how many orders were read to
    /// find them (at most three times the page and 66).
    func page(from start: Int, limit: Int) -> (orders: [Order], more: Bool, examined: Int) {
        guard children.shownByDefault else {
            let seen = named.filter(\.seen).compactMap { o in book.position(of: o.order.id).map { ($0, o.order) } }
                .filter { $0.0 >= start }.sorted { $0.0 < $1.0 }.map(\.1)
            return (Array(seen.prefix(limit)), seen.count > limit, named.count)
        }
        var out: [Order] = []
        var rank = seen(amongFirst: start)
        var examined = 0
        // Orders are read in order, hidden ones skipped, while the skipped number fewer than
        // the page and 64 (a few hidden orders among seen ones cost less read than found);
        // past that, a hidden one ends the run, and the next seen order is found by its rank,
        // not by reading the hidden ones after it.
        var skips = limit + 64
        while out.count < limit, let p = position(ofRank: rank) {
            for o in book.orders(from: p) {
                examined += 1
                guard sees(o) else {
                    skips -= 1
                    if skips < 0 { break } else { continue }
                }
                out.append(o)
                rank += 1
                if out.count == limit { break }
            }
        }
        return (out, rank < count, examined)
    }
}
