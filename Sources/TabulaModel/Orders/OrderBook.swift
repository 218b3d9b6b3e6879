/// The live order list: append, remove by id and page in O(log n).
public struct OrderBook: Sendable {
    /// Orders by id − `base` (ids are dense and only grow; a clear moves `base` on), with
    /// their handles in `list` and in their entry's list of `byEntry`.
    private var slots = ChunkedArray<(order: Order?, handle: ListHandle, entryHandle: ListHandle)>()
    private var base = 1
    private var list = OrderedList()
    /// The id the next order gets.
    public private(set) var nextId = 1
    /// The orders of each menu entry (by its path), in id order: what a viewer's denied
    /// entries hide, counted, and counted before any order, without a look at each order.
    private var byEntry: [String: OrderedList] = [:]

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

    /// The paths of the menu entries that have orders.
    public var entries: Dictionary<String, OrderedList>.Keys { byEntry.keys }

    /// How many orders of menu entry `entry` have an id below `id`: O(log n).
    public func countBelow(_ id: Int, of entry: String) -> Int { byEntry[entry]?.countBelow(id) ?? 0 }

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
        while base + slots.count <= o.id { slots.append((nil, -1, -1)) }
        slots[o.id - base] = (o, list.append(o.id), byEntry[o.entry, default: OrderedList()].append(o.id))
        nextId = max(nextId, o.id + 1)
    }

    /// Makes sure new orders get ids from `next` on.
    public mutating func reserveIds(upTo next: Int) {
        nextId = max(nextId, next)
        if slots.count == 0 { base = nextId }
    }

    /// Removes order `id`.
    public mutating func remove(_ id: Int) -> Order? {
        guard let o = order(id) else { return nil }
        let slot = slots[id - base]
        list.remove(slot.handle)
        slots[id - base] = (nil, -1, -1)
        byEntry[o.entry]?.remove(slot.entryHandle)
        if byEntry[o.entry]?.count == 0 { byEntry[o.entry] = nil }
        return o
    }

    /// Removes every order (ids keep counting up).
    public mutating func clear() {
        slots = ChunkedArray()
        base = nextId
        list = OrderedList()
        byEntry = [:]
    }

    /// The order at 0-based `position`, or nil past the end: O(log n).
    public func order(at position: Int) -> Order? { list.handle(at: position).flatMap { order(list.id($0)) } }

    /// The orders from 0-based `position` to the end, in order, read as they are needed.
    public func orders(from position: Int) -> LazyMapSequence<UnfoldSequence<ListHandle, ListHandle?>, Order> {
        list.handles(from: position).lazy.map { self.slots[self.list.id($0) - self.base].order! }
    }

    /// Up to `limit` orders from 0-based `position`.
    public func page(from position: Int, limit: Int) -> [Order] {
        list.page(from: position, limit: limit).compactMap { order(list.id($0)) }
    }
}
