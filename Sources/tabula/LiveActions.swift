import CNcurses
import Foundation
import TabulaClient
import TabulaProtocol

/// What the live view's keys do to the state: each action is the verb a user would type,
/// sent with `IF REV` of the entry as shown, so an action on a row that changed since it was
/// drawn is refused; the refusal is said in the status line, and the copy already shows the
/// change (the events before the reply are taken first).
///
/// - Enter on a list's row opens it (a leaf, a setting, an order as its detail); on a
///   setting's option selects it; on a menu entry orders it.
/// - On an item: `f` toggles its favourite, `K`/`J` move it up or down in its section, `e`
///   edits its name and price, `d` removes it (after y); `a` adds an item (name and price
///   asked in the status line).
/// - `F` shows favourites only, or everything again; Tab shows a leaf's next tab.
/// - `?` names the keys.
extension LiveView {
    static let keys =
        "Enter open/select/order · f favourite · F favourites only · K/J move · a add · e edit · d delete · Tab next tab · j/k g/G PgUp/PgDn · ← back · q quit"

    var selectedLine: LiveLine? { selected < lines.count ? lines[selected] : nil }

    /// Enter on the selected line.
    func enterOrAct() {
        guard let line = selectedLine else { return }
        switch line.kind {
        case .detail:
            if let entry = place.entry, line.key.hasPrefix("option ") {
                send("SELECT \(Quoting.quote(entry)) #\(line.key.dropFirst(7))", ifRev: line.rev)
            }
        case .entry:
            switch line.value["type"]?.stringValue {
            case "menu-entry": send("ORDER \(Quoting.quote(line.key))")  // no IF REV: an order appends, losing nothing
            case "item": status = "an item: f favourite · K/J move · e edit · d delete"
            default: go(to: line.key)
            }
        case .header, .empty: break
        }
    }

    /// A key that is not a movement; always false (never leaves).
    func act(_ k: UInt8) -> Bool {
        switch k {
        case UInt8(ascii: "?"): status = LiveView.keys
        case UInt8(ascii: "f"): onItem { line, id in send("FAV /items/\(id)", ifRev: line.rev) }
        case UInt8(ascii: "K"), UInt8(ascii: "J"):
            onItem { line, id in
                guard let at = feed.replica.index(of: line.key)?.row else { return }
                let to = k == UInt8(ascii: "K") ? at : at + 2
                guard to >= 1 else { return }
                send("MV /items/\(id) \(to)", ifRev: line.rev)
            }
        case UInt8(ascii: "d"):
            onItem { line, id in
                confirming = "RM /items/\(id) IF REV \(line.rev)"
                status = "remove item \(id)\(line.value["name"]?.stringValue.map { " (\($0))" } ?? "")? y/n"
            }
        case UInt8(ascii: "F"): toggleFavoritesOnly()
        case UInt8(ascii: "a"): addItem()
        case UInt8(ascii: "e"): onItem { line, id in editItem(line, id) }
        default: break
        }
        return false
    }

    /// y sends the action waiting for it; anything else drops it.
    func confirm(_ k: TerminalKey) -> Bool {
        let action = confirming
        confirming = nil
        if k == .byte(UInt8(ascii: "y")), let action { send(action) } else { status = "not removed" }
        return false
    }

    /// `a`: asks a name and a price, and adds the item (no IF REV: an add loses nothing).
    private func addItem() {
        guard place.list == "/items" else {
            status = "a adds an item (tabula live /items)"
            return
        }
        guard let name = ask("new item's name: "), !name.isEmpty, let price = ask("\(name)'s price: $") else {
            status = "nothing added"
            return
        }
        send("ADD /items \(Quoting.quote(name)) \(Quoting.quote(price))")
    }

    /// `e`: asks the item's name and price (each shown to be changed), and sets them.
    private func editItem(_ line: LiveLine, _ id: Int64) {
        let was = (
            name: line.value["name"]?.stringValue ?? "", price: line.value["value"]?.intValue.map(String.init) ?? ""
        )
        guard let name = ask("name: ", initial: was.name), let price = ask("price: $", initial: was.price) else {
            status = "not changed"
            return
        }
        send("SET /items/\(id) name=\(Quoting.quote(name)) value=\(Quoting.quote(price))", ifRev: line.rev)
    }

    private func onItem(_ body: (LiveLine, Int64) -> Void) {
        guard let line = selectedLine, line.kind == .entry, let id = line.value["id"]?.intValue,
            line.value["type"]?.stringValue == "item"
        else {
            status = "that key acts on an item (tabula live /items)"
            return
        }
        body(line, id)
    }

    private func toggleFavoritesOnly() {
        guard place.list == "/items" else { return }
        guard favoritesOnly || feed.replica.entries.contains(where: { $0.value["favorite"] == .bool(true) }) else {
            status = "no item is a favourite yet (f stars the selected one)"
            return
        }
        favoritesOnly.toggle()
        stale = true
        status = favoritesOnly ? "Favorites (F: Show All)" : "Show All (F: Favorites)"
    }

    /// Sends `line` (with `IF REV ifRev` when given) and says the answer.
    func send(_ line: String, ifRev: UInt64? = nil) {
        guard let c = conn else { return }
        guard let r = try? ask(ifRev.map { "\(line) IF REV \($0)" } ?? line, on: c) else {
            status = "connection lost; reconnecting…"
            return
        }
        if let e = r.reply.error {
            status = e.code == .conflict ? "changed meanwhile, shown again: \(e.message)" : "ERR \(e)"
        } else {
            status = "OK \(r.reply.message)\(r.reply.rev.map { " rev=\($0)" } ?? "")"
        }
    }
}

/// A line typed in the status line, edited as readline edits (`LineEdit`).
extension LiveView {
    func ask(_ prompt: String, initial: String = "") -> String? {
        var edit = LineEdit(initial)
        let cols = Int(tabula_curses_cols()), line = Int(tabula_curses_lines()) - 1
        curs_set(1)
        defer { curs_set(0) }
        while true {
            move(Int32(line), 0)
            clrtoeol()
            put(line, 0, prompt + edit.text, width: cols - 1)
            move(Int32(line), Int32(min(cols - 1, prompt.count + edit.cursor)))
            refresh()
            let key: LineEdit.Key
            switch nextKey() {
            case .left: key = .left
            case .right: key = .right
            case .home: key = .home
            case .end: key = .end
            case .delete: key = .delete
            case .byte(let b): key = .byte(b)
            case nil, .up, .down, .pageUp, .pageDown, .insert, .other: continue
            }
            switch edit.take(key) {
            case .editing: continue
            case .done(let text): return text
            case .dropped: return nil
            }
        }
    }
}

/// The path was refused (unknown, not allowed): said before the screen is taken.
struct LiveRefusal: Error {
    let message: String
}
