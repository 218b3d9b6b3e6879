import TabulaProtocol

/// `/orders` (seed 003): the live order list that ORDER appends to.
public struct OrdersList: ListStore {
    public static let name = "orders"
    /// Places: the list, an order (`a`: its id).
    static let order: UInt8 = 1

    /// The orders.
    public internal(set) var orders = OrderBook()

    public init() {}

    public var recordsMutations = true

    public func summary(seenBy viewer: Viewer) -> Row {
        let n = viewer.isRestricted ? viewer.grants.map { SeenOrders(orders, grants: $0).count } ?? 0 : orders.count
        return Row(
            text: "orders/  \(n) \(plural(n, "order"))",
            json: .object([("name", .string("orders")), ("count", .int(Int64(n)))]), path: RowPath("/", "orders"))
    }

    /// Whether `viewer` sees order `o`: an order of a menu entry its grants deny is, for
    /// it, an order never made.
    func sees(_ o: Order, _ viewer: Viewer) -> Bool {
        viewer.sees("/orders/\(o.id)") && !(viewer.grants?.denies(o.entry) ?? false)
    }

    /// An order of a menu entry the viewer's grants deny.
    public func hides(_ ref: Ref, from viewer: Viewer) -> Bool {
        ref.kind == OrdersList.order && orders.order(ref.a).map { viewer.grants?.denies($0.entry) ?? false } ?? false
    }

    public func isList(_ ref: Ref) -> Bool { ref.kind == 0 }

    /// An order's id (`/orders/3`), as `ChangeRevisions.number(_:root:)` reads one from a path.
    public func number(of ref: Ref) -> Int? { ref.kind == OrdersList.order ? ChangeRevisions.keptNumber(ref.a) : nil }

    public func child(of ref: Ref, named name: String) -> Ref? {
        guard ref.kind == 0, let id = Int(name), orders.order(id) != nil else { return nil }
        return Ref(OrdersList.order, id)
    }

    public func path(of ref: Ref) -> String { ref.kind == 0 ? "/orders" : ModelPath.numbered("/orders", ref.a) }

    public func childNames(of ref: Ref, limit: Int) -> [(name: String, isList: Bool)] {
        ref.kind == 0 ? orders.page(from: 0, limit: limit).map { (String($0.id), false) } : []
    }

    public func list(_ ref: Ref, limit: Int, after: String?, viewer: Viewer) throws -> Reply {
        guard ref.kind == 0 else { return try show(ref, viewer: viewer) }
        // A viewer with grants pages over the orders it sees only (`SeenOrders`).
        let seen = viewer.isRestricted ? viewer.grants.map { SeenOrders(orders, grants: $0) } : nil
        var start = 0
        if let a = after {
            guard let id = Int(a), let p = orders.position(of: id), seen?.sees(orders.order(id)!) ?? true else {
                throw TabulaError(.notFound, "AFTER \(a): no order \(a)")
            }
            start = p + 1
        }
        let total = seen?.count ?? orders.count
        let (page, more) =
            seen.map { s in s.page(from: start, limit: limit) }.map { ($0.orders, $0.more) }
            ?? (orders.page(from: start, limit: limit), start + limit < orders.count)
        var reply = Reply(
            rows: page.map { Row(text: $0.row, json: .deferred($0), path: RowPath("/orders", number: $0.id)) },
            message: "\(page.count) of \(total)")
        if more, let last = page.last {
            reply.message += "; more: LS /orders LIMIT \(limit) AFTER \(last.id)"
        }
        return reply
    }

    public func show(_ ref: Ref, viewer: Viewer) throws -> Reply {
        guard ref.kind == OrdersList.order else {
            return try list(ref, limit: Model.defaultPage, after: nil, viewer: viewer)
        }
        let p = path(of: ref)
        guard let o = orders.order(ref.a), sees(o, viewer) else { throw TabulaError(.notFound, "no \(p)") }
        return Reply(
            rows: [
                fieldRow("id", "\(o.id)", .int(Int64(o.id))), fieldRow("title", o.title, .string(o.title)),
                fieldRow("entry", o.entry, .string(o.entry)),
                fieldRow("created", Display.timestamp(o.created), .string(Display.timestamp(o.created))),
            ], message: p)
    }

    public mutating func write(_ w: Write, at ref: Ref, viewer: Viewer, now: Double, rng: inout SplitMix64) throws
        -> Outcome?
    {
        switch (w, ref.kind) {
        case (.order(let entry, let title), _):
            let o = orders.append(entry: entry, title: title, created: now)
            return .changed(
                .order, path: ModelPath.numbered("/orders", o.id),
                entry: (Model.ordersIndex, Ref(OrdersList.order, o.id)),
                row: Row(text: o.row, json: .deferred(o)),
                message: "order \(o.id): \(o.title)", mutations: record(OrdersCodec.put(o)))
        case (.add, _):
            throw TabulaError(.invalid, "orders are placed with ORDER menu-entry, e.g. ORDER /menu/pizza/margherita")
        case (.remove, OrdersList.order):
            let p = path(of: ref)
            guard let o = orders.order(ref.a), sees(o, viewer), let gone = orders.remove(o.id) else {
                throw TabulaError(.notFound, "no \(p)")
            }
            return .removed(
                p, entry: (Model.ordersIndex, ref), title: gone.title,
                mutations: record([Mutation(OrdersCodec.table, .delete(.int(Int64(ref.a))))]))
        case (.remove, 0):
            // Clearing would remove, and count, orders the viewer is not shown: refused by its
            // grants alone (whether any such order exists now is not told).
            if viewer.isRestricted, let g = viewer.grants, !g.seesEveryOrder {
                throw TabulaError(
                    .noPerm,
                    "RM /orders clears every order, and your grants do not show you every order; remove the orders you see one by one (RM /orders/N)"
                )
            }
            let n = orders.count
            let what = "\(n) \(plural(n, "order"))"
            guard n > 0 else { return .unchanged("cleared \(what)") }
            orders.clear()
            return Outcome(
                Reply(message: "cleared \(what)"),
                event: Event(rev: 0, what: .clear, path: "/orders", summary: "\(what) cleared", value: .null),
                mutations: record([Mutation(OrdersCodec.table, .replaceAll([]))]))
        default:
            return nil
        }
    }
}
