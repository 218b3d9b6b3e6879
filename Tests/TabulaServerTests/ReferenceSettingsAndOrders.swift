/// The settings' master rows and the order list as Protocol.md describes them, plainly: a
/// setting's row shows its selected option; an order is appended with the next number (never
/// one used before), removed by number, and `RM /orders` clears the list. No code shared with
/// TabulaModel. An oracle of `ReferenceModelTests`.
struct ReferenceSettingsAndOrders {
    struct Setting {
        var name: String
        var options: [String]
        var selected: Int  // 1-based
    }

    var settings: [Setting]
    /// Menu entries by name, as their paths.
    let dishes: [String: String]
    var orders: [(id: Int, entry: String)] = []
    var nextOrder = 1

    /// `SELECT /settings/NAME #k`: the k-th option (1-based: `#0` is no index), if there is one.
    mutating func select(_ name: String, _ k: Int) -> ReferenceItems.Outcome {
        guard k >= 1 else { return .refused("SYNTAX") }
        guard let i = settings.firstIndex(where: { $0.name == name }) else { return .refused("NOTFOUND") }
        guard k <= settings[i].options.count else { return .refused("NOTFOUND") }
        settings[i].selected = k
        return .taken
    }

    mutating func order(_ dish: String) -> ReferenceItems.Outcome {
        guard let entry = dishes[dish] else { return .refused("NOTFOUND") }
        orders.append((nextOrder, entry))
        nextOrder += 1
        return .taken
    }

    mutating func removeOrder(_ id: Int) -> ReferenceItems.Outcome {
        guard let i = orders.firstIndex(where: { $0.id == id }) else { return .refused("NOTFOUND") }
        orders.remove(at: i)
        return .taken
    }

    mutating func clearOrders() -> ReferenceItems.Outcome {
        orders.removeAll()
        return .taken
    }

    /// `LS /settings` (each master row: name and selected value), then `LS /orders`.
    var listed: [String] {
        settings.map { "\($0.name): \($0.options[$0.selected - 1])" } + orders.map { "order \($0.id) \($0.entry)" }
    }
}
