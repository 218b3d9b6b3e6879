import CNcurses
import Foundation
import TabulaClient
import TabulaProtocol

/// What the live view's keys do to the state: each action is the verb a user would type,
/// sent with `IF REV` of the revision on screen, so an action on a row that changed since it
/// was drawn is refused; the refusal is said in the status line and the rows are listed again
/// from the server.
///
/// - Enter on a setting's option selects it; on a menu entry orders it.
/// - On an item: `f` toggles its favourite, `K`/`J` move it up or down in its section, `e`
///   edits its name and price, `d` removes it (after y); `a` adds an item (name and price
///   asked in the status line).
/// - `F` shows favourites only, or everything again.
/// - `?` names the keys.
extension LiveView {
    static let keys = "Enter open/select/order · f favourite · F favourites only · K/J move · a add · e edit · d delete · j/k g/G PgUp/PgDn · ← back · q quit"

    /// Enter on a row that is not a list.
    func actOnEnter() {
        let row = rows[selected]
        if let option = LiveRow.option(row) {
            return send("SELECT \(Quoting.quote(path)) #\(option)")
        }
        if path.hasPrefix("/menu/"), let name = row.split(separator: " ").first {
            return send("ORDER \(Quoting.quote(path + "/" + name))")
        }
    }

    /// A key that is not a movement; always false (never leaves).
    func act(_ k: Int32) -> Bool {
        switch k {
        case Int32(UInt8(ascii: "?")): status = LiveView.keys
        case Int32(UInt8(ascii: "f")): onItem { send("FAV /items/\($0)") }
        case Int32(UInt8(ascii: "K")), Int32(UInt8(ascii: "J")):
            onItem { id in
                guard let at = LiveRow.position(of: selected, in: rows) else { return }
                let to = k == Int32(UInt8(ascii: "K")) ? at - 1 : at + 1
                guard to >= 1 else { return }
                send("MV /items/\(id) \(to)")
            }
        case Int32(UInt8(ascii: "d")):
            onItem { id in
                confirming = "RM /items/\(id)"
                let name = selected < rows.count ? LiveRow.item(rows[selected])?.name : nil
                status = "remove item \(id)\(name.map { " (\($0))" } ?? "")? y/n"
            }
        case Int32(UInt8(ascii: "F")): toggleFavoritesOnly()
        case Int32(UInt8(ascii: "a")): addItem()
        case Int32(UInt8(ascii: "e")): onItem { editItem($0) }
        default: break
        }
        return false
    }

    /// y sends the action waiting for it; anything else drops it.
    func confirm(_ k: Int32) -> Bool {
        let action = confirming
        confirming = nil
        if k == Int32(UInt8(ascii: "y")), let action { send(action) } else { status = "not removed" }
        return false
    }

    /// `a`: asks a name and a price, and adds the item (no IF REV: an add loses nothing).
    private func addItem() {
        guard path == "/items" || path.hasPrefix("/items/") else {
            status = "a adds an item (tabula live /items)"
            return
        }
        guard let name = ask("new item's name: "), !name.isEmpty, let price = ask("\(name)'s price: $") else {
            status = "nothing added"
            return
        }
        send("ADD /items \(Quoting.quote(name)) \(Quoting.quote(price))", conditional: false)
    }

    /// `e`: asks the item's name and price (each shown to be changed), and sets them.
    private func editItem(_ id: Int) {
        guard let p = LiveRow.item(rows[selected]) else { return }
        guard let name = ask("name: ", initial: p.name), let price = ask("price: $", initial: String(p.value.dropFirst())) else {
            status = "not changed"
            return
        }
        send("SET /items/\(id) name=\(Quoting.quote(name)) value=\(Quoting.quote(price))")
    }

    private func onItem(_ body: (Int) -> Void) {
        guard path == "/items" || path.hasPrefix("/items/"), selected < rows.count, let id = LiveRow.itemID(rows[selected]) else {
            status = "that key acts on an item (tabula live /items)"
            return
        }
        body(id)
    }

    private func toggleFavoritesOnly() {
        guard let c = conn, path == "/items" || path.hasPrefix("/items/") else { return }
        let r = try? c.request(favoritesOnly ? "FILTER all" : "FILTER favorites")
        guard let r, r.isOK else {
            status = r?.final ?? "connection lost"
            return
        }
        favoritesOnly.toggle()
        try? reload(marking: false)
        status = favoritesOnly ? "Favorites (F: Show All)" : "Show All (F: Favorites)"
    }

    /// Sends `line IF REV <on screen>` (or as it is when not `conditional`); says the answer,
    /// and lists again.
    func send(_ line: String, conditional: Bool = true) {
        guard let c = conn else { return }
        guard let r = try? c.request(conditional ? "\(line) IF REV \(rev)" : line) else {
            status = "connection lost; reconnecting…"
            return
        }
        try? reload(marking: true)  // before the status: the listing writes its own
        if r.reply.error?.code == .conflict {
            status = "changed meanwhile, shown again: \(r.reply.error!.message)"
        } else {
            status = r.final
        }
    }
}

/// A line typed in the status line: Enter takes it, Esc or Ctrl-C drops it, Backspace
/// removes a character; what is typed is UTF-8 and at most 200 bytes.
extension LiveView {
    func ask(_ prompt: String, initial: String = "") -> String? {
        var typed = Array(initial.utf8)
        let cols = Int(tabula_curses_cols()), line = Int(tabula_curses_lines()) - 1
        curs_set(1)
        defer { curs_set(0) }
        while true {
            let text = prompt + String(decoding: typed, as: UTF8.self)
            move(Int32(line), 0)
            clrtoeol()
            put(line, 0, text, width: cols - 1)
            refresh()
            let k = tabula_curses_getch()
            switch k {
            case -1: continue
            case 10, 13, KEY_ENTER: return String(decoding: typed, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            case 27, 3: return nil
            case KEY_BACKSPACE, 127, 8:
                while let last = typed.popLast(), last & 0xC0 == 0x80 {}  // a whole character
            case 32...255 where typed.count < 200: typed.append(UInt8(k))
            default: continue
            }
        }
    }
}

/// The path was refused (unknown, not allowed): said before the screen is taken.
struct LiveRefusal: Error {
    let message: String
}
