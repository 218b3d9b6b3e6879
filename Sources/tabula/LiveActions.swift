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
/// - On an item: `f` toggles its favourite, `K`/`J` move it up or down in its section, `d`
///   removes it (after y).
/// - `F` shows favourites only, or everything again.
/// - `?` names the keys.
extension LiveView {
    static let keys = "Enter open/select/order · f favourite · F favourites only · K/J move · d delete · j/k g/G move the cursor · ← back · q quit"

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
                status = "remove item \(id)? y/n"
            }
        case Int32(UInt8(ascii: "F")): toggleFavoritesOnly()
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

    /// Sends `line IF REV <on screen>`; says the answer, and lists again.
    func send(_ line: String) {
        guard let c = conn else { return }
        guard let r = try? c.request("\(line) IF REV \(rev)") else {
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

/// What the view reads from its rows' text (the server's LS rows).
enum LiveRow {
    /// `[ ] #2  16` → 2: an option of a setting.
    static func option(_ row: String) -> Int? {
        guard row.hasPrefix("[ ] #") || row.hasPrefix("[x] #") else { return nil }
        return Int(row.dropFirst(5).prefix { $0.isNumber })
    }

    /// `5  Red Chair  $42 …` → 5: an item.
    static func itemID(_ row: String) -> Int? {
        guard let first = row.split(separator: " ", maxSplits: 1).first else { return nil }
        return Int(first)
    }

    /// The 1-based position of the item at `index` among the items of its section (the rows
    /// since the last section header).
    static func position(of index: Int, in rows: [String]) -> Int? {
        guard index < rows.count, itemID(rows[index]) != nil else { return nil }
        var n = 0
        for i in stride(from: index, through: 0, by: -1) {
            if rows[i].hasPrefix(RowMarks.sectionHeader) { break }
            if itemID(rows[i]) != nil { n += 1 }
        }
        return n
    }
}

/// The path was refused (unknown, not allowed): said before the screen is taken.
struct LiveRefusal: Error {
    let message: String
}
