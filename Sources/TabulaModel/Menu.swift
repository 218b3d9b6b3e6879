import TabulaProtocol

/// One entry of the static menu.
public struct MenuEntry: Sendable, Equatable {
    /// Makes one.
    public init(slug: String, title: String) {
        self.slug = slug
        self.title = title
    }

    /// Path name.
    public var slug: String
    /// Shown title, e.g. "Margherita".
    public var title: String
}

/// One section of the menu, e.g. "Pizza".
public struct MenuSection: Sendable, Equatable {
    /// Makes one.
    public init(slug: String, title: String, entries: [MenuEntry]) {
        self.slug = slug
        self.title = title
        self.entries = entries
    }

    /// Path name.
    public var slug: String
    /// Shown title.
    public var title: String
    /// Entries in order.
    public var entries: [MenuEntry]
}

/// One line of the live order list.
public struct Order: Sendable, Equatable {
    /// Stable id, its path name under `/orders`.
    public var id: Int
    /// The menu entry's path at the time of ordering.
    public var entry: String
    /// The entry's title at the time of ordering.
    public var title: String
    /// When it was ordered, Unix seconds.
    public var created: Double

    /// Makes an order.
    public init(id: Int, entry: String, title: String, created: Double) {
        self.id = id
        self.entry = entry
        self.title = title
        self.created = created
    }

    /// The order as JSON.
    public var json: JSONValue {
        .object([("type", .string("order")), ("id", .int(Int64(id))), ("entry", .string(entry)), ("title", .string(title)), ("created", .string(Display.timestamp(created)))])
    }

    /// The order's one-line text row.
    public var row: String { "\(id)  \(title)  \(entry)  \(Display.timestamp(created))" }
}

/// The live order list: append, remove by id and page in O(log n).
public struct OrderBook: Sendable {
    private var orders: [Int: Order] = [:]
    private var handles: [Int: ListHandle] = [:]
    private var list = OrderedList()
    /// The id the next order gets.
    public private(set) var nextId = 1

    /// An empty order list.
    public init() {}

    /// The number of orders.
    public var count: Int { list.count }
    /// The order with `id`.
    public func order(_ id: Int) -> Order? { orders[id] }
    /// The 0-based position of order `id`.
    public func position(of id: Int) -> Int? { handles[id].map { list.position($0) } }

    /// Appends a new order.
    public mutating func append(entry: String, title: String, created: Double) -> Order {
        let o = Order(id: nextId, entry: entry, title: title, created: created)
        load([o])
        return o
    }

    /// Loads stored orders (in id order).
    public mutating func load(_ stored: [Order]) {
        for o in stored.sorted(by: { $0.id < $1.id }) {
            orders[o.id] = o
            handles[o.id] = list.append(o.id)
            nextId = max(nextId, o.id + 1)
        }
    }

    /// Makes sure new orders get ids from `next` on.
    public mutating func reserveIds(upTo next: Int) { nextId = max(nextId, next) }

    /// Removes order `id`.
    public mutating func remove(_ id: Int) -> Order? {
        guard let h = handles.removeValue(forKey: id) else { return nil }
        list.remove(h)
        return orders.removeValue(forKey: id)
    }

    /// Removes every order (ids keep counting up).
    public mutating func clear() {
        orders = [:]
        handles = [:]
        list = OrderedList()
    }

    /// Up to `limit` orders from 0-based `position`.
    public func page(from position: Int, limit: Int) -> [Order] {
        list.page(from: position, limit: limit).compactMap { orders[list.id($0)] }
    }
}
