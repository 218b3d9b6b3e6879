/// The live order list: append, remove by id and page in O(log n).
public struct OrderBook: Sendable {
    /// Orders by id − `base` (ids are dense and only grow; a clear moves `base` on).
    private var slots = ChunkedArray<(order: Order?, handle: ListHandle)>()
    private var base = 1
    private var list = OrderedList()
    /// The id the next order gets.
    public private(set) var nextId = 1
    /// How many orders there are of each menu entry (by its path): what a viewer's denied
    /// entries hide, counted without a look at each order.
    public private(set) var countByEntry: [String: Int] = [:]

    /// An empty order list.
    public init() {}

    /// The number of orders.
    public var count: Int { list.count }
    /// The order with `id`.
    public func order(_ id: Int) -> Order? {
        id >= base && id - base < slots.count ? slots[id - base].order : nil
    }
    /// The 0-based position of order `id`.
    public func position(of id: Int) -> Int? {
        guard order(id) != nil else { return nil }
        return list.position(slots[id - base].handle)
    }

    /// Appends a new order.
    public mutating func append(entry: String, title: String, created: Double) -> Order {
        let o = Order(id: nextId, entry: entry, title: title, created: created)
        place(o)
        return o
    }

    /// Loads stored orders (in id order).
    public mutating func load(_ stored: [Order]) {
        for o in stored.sorted(by: { $0.id < $1.id }) where o.id >= base { place(o) }
    }

    /// Puts `o` (an id above every id held) at the end of the list; the first order held
    /// sets where the ids start.
    private mutating func place(_ o: Order) {
        if slots.count == 0 { base = max(base, o.id) }
        while base + slots.count <= o.id { slots.append((nil, -1)) }
        slots[o.id - base] = (o, list.append(o.id))
        nextId = max(nextId, o.id + 1)
        countByEntry[o.entry, default: 0] += 1
    }

    /// Makes sure new orders get ids from `next` on.
    public mutating func reserveIds(upTo next: Int) {
        nextId = max(nextId, next)
        if slots.count == 0 { base = nextId }
    }

    /// Removes order `id`.
    public mutating func remove(_ id: Int) -> Order? {
        guard let o = order(id) else { return nil }
        list.remove(slots[id - base].handle)
        slots[id - base] = (nil, -1)
        let left = countByEntry[o.entry, default: 1] - 1
        countByEntry[o.entry] = left > 0 ? left : nil
        return o
    }

    /// Removes every order (ids keep counting up).
    public mutating func clear() {
        slots = ChunkedArray()
        base = nextId
        list = OrderedList()
        countByEntry = [:]
    }

    /// Up to `limit` orders from 0-based `position`.
    public func page(from position: Int, limit: Int) -> [Order] {
        list.page(from: position, limit: limit).compactMap { order(list.id($0)) }
    }
}
