/// The settings' master rows and the order list as Protocol.md describes them, plainly: a
/// setting's row shows its selected option; an order is appended with the next number (never
/// one used before), removed by number, and `RM /orders` clears the list. No code shared with
/// TabulaModel. An oracle of `ReferenceModelTests`, and of the events each change makes
/// (`events`) for `EventOracleTests`.
struct ReferenceSettingsAndOrders {
    struct Setting {
        var name: String
        var options: [String]
        var selected: Int  // 1-based
        var title = ""
        /// `int` (options and value are numbers) or `text`.
        var type = "text"
    }

    struct Order {
        var id: Int
        var entry: String
        var title: String
        /// When it was made: learned from its event.
        var created: RefValue = .unknown
    }

    var settings: [Setting]
    /// Menu entries by name: their paths and titles.
    let dishes: [String: (path: String, title: String)]
    var orders: [Order] = []
    var nextOrder = 1
    /// The events of the changes made, in order.
    var events: [ReferenceEvent] = []

    /// A setting's master row as `LS /settings` shows it in JSON.
    static func row(_ s: Setting) -> RefValue {
        let option = { (o: String) -> RefValue in s.type == "int" ? .int(Int(o) ?? -1) : .string(o) }
        let value = s.options[s.selected - 1]
        return .object([
            ("name", .string(s.name)), ("title", .string(s.title)), ("type", .string(s.type)),
            ("options", .array(s.options.map(option))), ("selected", .int(s.selected)), ("value", option(value)),
            ("row", .string("\(s.title): \(value)")),
        ])
    }

    static func row(_ o: Order) -> RefValue {
        .object([
            ("type", .string("order")), ("id", .int(o.id)), ("entry", .string(o.entry)), ("title", .string(o.title)),
            ("created", o.created),
        ])
    }

    /// `SELECT /settings/NAME #k`: the k-th option (1-based: `#0` is no index), if there is one.
    mutating func select(_ name: String, _ k: Int) -> ReferenceItems.Outcome {
        guard k >= 1 else { return .refused("SYNTAX") }
        guard let i = settings.firstIndex(where: { $0.name == name }) else { return .refused("NOTFOUND") }
        guard k <= settings[i].options.count else { return .refused("NOTFOUND") }
        let old = settings[i]
        settings[i].selected = k
        guard k != old.selected else { return .taken }
        let here = ReferenceEvent.place(i + 1)
        events.append(
            ReferenceEvent(
                kind: "select", path: "/settings/\(name)", value: Self.row(settings[i]), prev: Self.row(old), at: here,
                from: here))
        return .taken
    }

    mutating func order(_ dish: String) -> ReferenceItems.Outcome {
        guard let entry = dishes[dish] else { return .refused("NOTFOUND") }
        orders.append(Order(id: nextOrder, entry: entry.path, title: entry.title))
        events.append(
            ReferenceEvent(
                kind: "order", path: "/orders/\(nextOrder)", value: Self.row(orders.last!),
                at: ReferenceEvent.place(orders.count)))
        nextOrder += 1
        return .taken
    }

    /// Takes the creation time the server gave order `id`.
    mutating func learn(order id: Int, created: RefValue) {
        if let i = orders.firstIndex(where: { $0.id == id }) { orders[i].created = created }
    }

    mutating func removeOrder(_ id: Int) -> ReferenceItems.Outcome {
        guard let i = orders.firstIndex(where: { $0.id == id }) else { return .refused("NOTFOUND") }
        let old = orders.remove(at: i)
        events.append(
            ReferenceEvent(
                kind: "rm", path: "/orders/\(id)", prev: Self.row(old), from: ReferenceEvent.place(i + 1)))
        return .taken
    }

    mutating func clearOrders() -> ReferenceItems.Outcome {
        if !orders.isEmpty { events.append(ReferenceEvent(kind: "clear", path: "/orders")) }
        orders.removeAll()
        return .taken
    }

    /// `LS /settings` (each master row: name and selected value), then `LS /orders`.
    var listed: [String] {
        settings.map { "\($0.name): \($0.options[$0.selected - 1])" } + orders.map { "order \($0.id) \($0.entry)" }
    }
}
