/// The orders one viewer with grants is shown, reduced to what can hide them: the menu
/// entries its grants deny that have orders (an order of a denied entry is, for it, an order
/// never made; `OrderBook.countByEntry` counts them), and the orders its prefixes name
/// (`ChildGrants` of `/orders`). Its count costs O(entries + prefixes); a page walks from
/// where it starts past the hidden orders only, so O(page + hidden orders in its way), not
/// a check of every order.
struct SeenOrders {
    private let book: OrderBook
    private let hiddenEntries: Set<String>
    private let children: ChildGrants
    /// The ids of the orders whose visibility differs from the default (`children`).
    private let differing: Set<Int>

    init(_ book: OrderBook, grants: Grants) {
        self.book = book
        hiddenEntries = Set(book.countByEntry.keys.filter { grants.denies($0) })
        children = ChildGrants(grants, list: "/orders")
        differing = Set(children.numberedExceptions)
    }

    func sees(_ o: Order) -> Bool {
        (hiddenEntries.isEmpty || !hiddenEntries.contains(o.entry))
            && differing.contains(o.id) != children.shownByDefault
    }

    /// The orders its prefixes name that exist, and whether each is seen.
    private var named: [(order: Order, seen: Bool)] { differing.compactMap { book.order($0) }.map { ($0, sees($0)) } }

    /// How many it sees.
    var count: Int {
        guard children.shownByDefault else { return named.count { $0.seen } }
        let byEntry = hiddenEntries.reduce(0) { $0 + book.countByEntry[$1, default: 0] }
        // Named and hidden, but not by their entry (counted there already).
        let byName = named.count { !$0.seen && !hiddenEntries.contains($0.order.entry) }
        return book.count - byEntry - byName
    }

    /// Up to `limit` seen orders after position `start` of the whole list (0: from the
    /// first), and whether another seen order follows them.
    func page(from start: Int, limit: Int) -> (orders: [Order], more: Bool) {
        guard children.shownByDefault else {
            let seen = named.filter(\.seen).compactMap { o in book.position(of: o.order.id).map { ($0, o.order) } }
                .filter { $0.0 >= start }.sorted { $0.0 < $1.0 }.map(\.1)
            return (Array(seen.prefix(limit)), seen.count > limit)
        }
        var out: [Order] = []
        var at = start
        let step = max(limit + 1, 64)
        while at < book.count {
            for o in book.page(from: at, limit: step) where sees(o) {
                if out.count == limit { return (out, true) }
                out.append(o)
            }
            at += step
        }
        return (out, false)
    }
}
