import TabulaProtocol

/// All items in one container, shown in sections by price band (seed 002, done for real:
/// one store, any number of bands, O(log n) per item operation).
public struct ItemStore: Sendable {
    /// Per id: the item (nil once removed), its handle in its section's list, its section.
    struct Slot: Sendable {
        var item: Item?
        var handle: ListHandle = -1
        var section: Int32 = 0
    }

    private var slots = ChunkedArray<Slot>()
    private var lists: [OrderedList]
    /// The bands in order of price.
    public private(set) var bands: [Band]
    /// The number of items.
    public private(set) var count = 0
    private var favoriteCount = 0
    private var maxOrd: Double = 0

    /// An empty store with the given bands.
    public init(bands: [Band] = Band.defaults) {
        self.bands = bands
        self.lists = bands.map { _ in OrderedList() }
    }

    /// The id the next new item gets.
    public var nextId: Int { max(1, slots.count) }
    /// Whether any item is a favourite.
    public var hasFavorites: Bool { favoriteCount > 0 }

    /// The item with `id`.
    public func item(_ id: Int) -> Item? { id >= 0 && id < slots.count ? slots[id].item : nil }

    /// The section index for a value.
    public func sectionIndex(forValue v: Int) -> Int {
        var lo = 0, hi = bands.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if bands[mid].lower <= v { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The section index of item `id`.
    public func section(of id: Int) -> Int { Int(slots[id].section) }
    /// The number of items in section `s`, optionally favourites only.
    public func count(section s: Int, favoritesOnly: Bool = false) -> Int {
        favoritesOnly ? lists[s].flaggedCount : lists[s].count
    }
    /// The 0-based position of item `id` in its section (or among its section's favourites).
    public func position(of id: Int, favoritesOnly: Bool = false) -> Int {
        let l = lists[Int(slots[id].section)]
        return favoritesOnly ? l.flaggedBefore(slots[id].handle) : l.position(slots[id].handle)
    }

    /// Up to `limit` items of section `s` from 0-based `position`.
    public func page(section s: Int, from position: Int, limit: Int, favoritesOnly: Bool) -> [Item] {
        lists[s].page(from: position, limit: limit, flaggedOnly: favoritesOnly).compactMap {
            slots[lists[s].id($0)].item
        }
    }

    private mutating func place(_ item: Item, at position: Int?) {
        while slots.count <= item.id { slots.append(Slot()) }
        let s = sectionIndex(forValue: item.value)
        let pos = position ?? lists[s].count
        let h = lists[s].insert(item.id, at: pos, flagged: item.favorite)
        slots[item.id] = Slot(item: item, handle: h, section: Int32(s))
        count += 1
        if item.favorite { favoriteCount += 1 }
        maxOrd = max(maxOrd, item.ord)
    }

    /// Adds a new item at the end of its price section; fills in `id` and `ord`.
    public mutating func add(name: String, value: Int, serial: String, created: Double) -> Item {
        let item = Item(
            id: nextId, name: name, value: value, serial: serial, created: created, favorite: false, ord: maxOrd + 1)
        place(item, at: nil)
        return item
    }

    /// Makes sure new items get ids from `next` on, so ids are never reused.
    public mutating func reserveIds(upTo next: Int) {
        while slots.count < next { slots.append(Slot()) }
    }

    /// Loads stored items (any order); each section is ordered by `ord`.
    public mutating func load(_ items: [Item]) {
        for item in items.sorted(by: { $0.ord < $1.ord }) { place(item, at: nil) }
    }

    /// Puts a stored item where its `ord` says (a stored change: new, renamed, repriced,
    /// moved or flagged). Each section stays sorted by `ord`, so once every changed item of a
    /// write is put (all of them, when a move renumbers) the order is the writer's.
    public mutating func put(_ item: Item) {
        if let old = self.item(item.id) {
            let s = Int(slots[item.id].section)
            if old.ord == item.ord && sectionIndex(forValue: item.value) == s {
                slots[item.id].item = item
                if old.favorite != item.favorite {
                    favoriteCount += item.favorite ? 1 : -1
                    lists[s].setFlag(slots[item.id].handle, item.favorite)
                }
                return
            }
            remove(item.id)
        }
        let s = sectionIndex(forValue: item.value)
        let n = lists[s].count
        let last = n > 0 ? lists[s].handle(at: n - 1).flatMap { self.item(lists[s].id($0))?.ord } : nil
        if let last, item.ord <= last {
            var lo = 0, hi = n
            while lo < hi {
                let mid = (lo + hi) / 2
                let o = lists[s].handle(at: mid).flatMap { self.item(lists[s].id($0))?.ord } ?? 0
                if o < item.ord { lo = mid + 1 } else { hi = mid }
            }
            place(item, at: lo)
        } else {
            place(item, at: nil)
        }
    }

    /// Every item, section by section in order.
    public var all: [Item] {
        var out: [Item] = []
        out.reserveCapacity(count)
        for s in bands.indices { out += page(section: s, from: 0, limit: lists[s].count, favoritesOnly: false) }
        return out
    }

    /// Removes item `id`, returning it.
    @discardableResult
    public mutating func remove(_ id: Int) -> Item? {
        guard let item = item(id) else { return nil }
        lists[Int(slots[id].section)].remove(slots[id].handle)
        slots[id] = Slot()
        count -= 1
        if item.favorite { favoriteCount -= 1 }
        return item
    }

    /// Renames item `id`.
    public mutating func rename(_ id: Int, to name: String) -> Item? {
        guard item(id) != nil else { return nil }
        slots[id].item?.name = name
        return slots[id].item
    }

    /// Changes item `id`'s value; a new band moves it to the end of that section.
    public mutating func reprice(_ id: Int, to value: Int) -> Item? {
        guard var item = item(id) else { return nil }
        let oldSection = Int(slots[id].section)
        item.value = value
        if sectionIndex(forValue: value) == oldSection {
            slots[id].item = item
            return item
        }
        remove(id)
        item.ord = maxOrd + 1
        place(item, at: nil)
        return item
    }

    /// Sets item `id`'s favourite flag.
    public mutating func setFavorite(_ id: Int, _ on: Bool) -> Item? {
        guard let item = item(id) else { return nil }
        if item.favorite != on {
            favoriteCount += on ? 1 : -1
            slots[id].item?.favorite = on
            lists[Int(slots[id].section)].setFlag(slots[id].handle, on)
        }
        return slots[id].item
    }

    /// Moves item `id` to 0-based `position` in its section. Returns every item whose stored
    /// fields changed: the moved one, or all of them on the rare renumbering of `ord`.
    public mutating func move(_ id: Int, to position: Int) -> [Item] {
        guard item(id) != nil else { return [] }
        let s = Int(slots[id].section)
        // Mutate the section's list in place: a local copy would copy all its storage (O(n)).
        let h = lists[s].move(slots[id].handle, to: position)
        slots[id].handle = h
        let p = lists[s].position(h)
        let before = p > 0 ? lists[s].handle(at: p - 1).flatMap { slots[lists[s].id($0)].item?.ord } : nil
        let after = lists[s].handle(at: p + 1).flatMap { slots[lists[s].id($0)].item?.ord }
        let ord: Double
        switch (before, after) {
        case (nil, nil): ord = maxOrd + 1
        case (let b?, nil): ord = b + 1
        case (nil, let a?): ord = a - 1
        case (let b?, let a?): ord = b + (a - b) / 2
        }
        if let b = before, let a = after, !(ord > b && ord < a) {
            return renumber()
        }
        slots[id].item?.ord = ord
        maxOrd = max(maxOrd, ord)
        return slots[id].item.map { [$0] } ?? []
    }

    /// Gives every item a fresh integer `ord` in the current order (section by section).
    private mutating func renumber() -> [Item] {
        var changed: [Item] = []
        var next = 1.0
        for l in lists {
            for h in l.allHandles {
                let id = l.id(h)
                slots[id].item?.ord = next
                next += 1
                if let it = slots[id].item { changed.append(it) }
            }
        }
        maxOrd = next
        return changed
    }

    /// Replaces the bands and re-sections every item, keeping their relative order.
    public mutating func setBands(_ newBands: [Band]) {
        var all: [Item] = []
        all.reserveCapacity(count)
        for i in 0..<slots.count { if let it = slots[i].item { all.append(it) } }
        let ids = slots.count
        bands = newBands
        lists = newBands.map { _ in OrderedList() }
        slots = ChunkedArray()
        count = 0
        favoriteCount = 0
        maxOrd = 0
        load(all)
        reserveIds(upTo: ids)
    }

    /// The item as JSON (built only when read).
    public func json(_ item: Item, position: Int? = nil) -> JSONValue { .deferred(itemRow(item, position: position)) }

    /// The item as its row shows it (its JSON and its text line, written when sent).
    func itemRow(_ item: Item, position: Int? = nil) -> ItemRow {
        ItemRow(item: item, section: bands[sectionIndex(forValue: item.value)].slug, position: position)
    }

    /// The item's one-line text row.
    public func row(_ item: Item) -> String { LineText(writtenBy: itemRow(item)).string }

    /// A band's range in words: "< $50", "$50 – $99", "≥ $100".
    public func rangeText(_ s: Int) -> String {
        let lo = bands[s].lower
        if bands.count == 1 { return "any price" }
        if s == 0 { return "< \(Display.dollars(bands[1].lower))" }
        if s == bands.count - 1 { return "≥ \(Display.dollars(lo))" }
        return "\(Display.dollars(lo)) – \(Display.dollars(bands[s + 1].lower - 1))"
    }
}
