@preconcurrency import CNcurses
import Foundation
import Glibc
import TabulaClient
import TabulaProtocol

/// `tabula live PATH` and `\live PATH`: a full-screen table of a list that redraws in place
/// on every change under it — the settings' master rows with each selection, a setting's
/// options with the selected one marked, a catalog level, the items in their price sections
/// with favourites and "No Items", and for `/menu` the menu beside the live order list (seed
/// 003's split view). Rows that just changed are highlighted for a moment. Arrows, j/k,
/// g/G, PgUp/PgDn move, Enter drills down, ← or Backspace go up, `q` (or Ctrl-C) returns
/// with the screen restored; the keys that act are in `LiveActions`, the drawing in
/// `LiveDrawing`, the paging in `LivePages`. It keeps one connection of its own for the
/// whole view (navigation reuses it); after a cut it reconnects with a back-off, watches and
/// lists again, so no change is lost from view.
final class LiveView {
    private let connect: () throws -> TabulaConnection
    var conn: TabulaConnection?
    var path: String
    var rows: [String] = []
    /// The rows as drawn: item columns aligned, ★ first (see `LiveRow.display`).
    var shown: [String] = []
    var orders: [String] = []
    /// How many orders there are (`orders` holds the newest of them).
    var ordersTotal = 0
    var changed: [String: Date] = [:]
    var selected = 0
    var top = 0
    /// The request for the next page of the list, when there is more than is loaded.
    var more: String?
    /// How many rows the list has in all, when the server said (`N of M`).
    var total: Int?
    /// When to try to connect again after a cut, and the wait after that (doubling to 5 s).
    private var retryAt = Date.distantPast
    private var retryDelay = 0.1
    var status = ""
    /// The revision the rows on screen were listed at (or later): every action is sent
    /// with `IF REV` of it, so one taken on a stale row is refused, not applied.
    var rev: UInt64 = 0
    /// An action waiting for y or n (a removal).
    var confirming: String?
    /// Only favourites are shown (`F`).
    var favoritesOnly = false

    init(path: String, connect: @escaping () throws -> TabulaConnection) {
        self.path = path
        self.connect = connect
    }

    /// Runs until `q`; returns an error message if the view could not start (the path
    /// refused: `refused`; the server unreachable otherwise).
    func run() -> (message: String, refused: Bool)? {
        do { try open() } catch let e as LiveRefusal { return (e.message, true) } catch { return ("\(error)", false) }
        tabula_curses_locale()
        initscr()
        raw()  // Ctrl-C is a key here (it leaves, as q does), not a signal
        noecho()
        tabula_curses_setup()  // keys as KEY_UP…, and a 100 ms wait for one
        curs_set(0)
        if has_colors() {
            start_color()
            use_default_colors()
            init_pair(1, Int16(COLOR_BLACK), Int16(COLOR_YELLOW))  // a row that just changed
            init_pair(2, Int16(COLOR_CYAN), -1)  // the header
        }
        defer { endwin() }
        var quit = false
        while !quit {
            draw()
            quit = key(tabula_curses_getch())
            follow()
        }
        return nil
    }

    /// Connects if not connected, watches the path (and the orders beside the menu) and
    /// lists it.
    private func open() throws {
        let c = try conn ?? connect()
        conn = c
        if favoritesOnly { _ = try c.request("FILTER favorites") }
        // An item's changes are events at /items/ID, not under its price section's path.
        let watched = try c.request("WATCH \(Quoting.quote(path.hasPrefix("/items/") ? "/items" : path))")
        if !watched.isOK { throw LiveRefusal(message: watched.final) }
        if isMenu { _ = try c.request("WATCH /orders") }
        try reload(marking: false)
    }


    /// Lists again (as many rows as were loaded, a page at least); with `marking`, rows
    /// that are new or differ are highlighted for a moment.
    func reload(marking: Bool) throws {
        guard let c = conn else { return }
        guard let listed = try list(atLeast: max(LiveView.pageSize, rows.count)) else { return }
        if marking {
            let before = Set(rows)
            for row in listed where !before.contains(row) { changed[row] = Date() }
        }
        selected = LiveCursor.follow(selected, from: rows, to: listed)  // the same entry, not the same row number
        rows = listed
        shown = LiveRow.display(rows)
        rev = max(rev, c.lastRevision)
        if isMenu { orders = (try? newestOrders()) ?? orders }
    }

    /// Takes the events that came (and redraws what they changed); reconnects when the server
    /// went away.
    private func follow() {
        guard let c = conn else {
            guard Date() >= retryAt else { return }
            if (try? open()) != nil {
                status = "reconnected"
                retryDelay = 0.1
            } else {
                conn = nil
                retryAt = Date().addingTimeInterval(retryDelay)
                status = "connection lost; reconnecting in \(String(format: "%.1f", retryDelay)) s…"
                retryDelay = min(5, retryDelay * 2)
            }
            return
        }
        let pushes = c.pollPushes()
        if c.line.isClosed || pushes.contains(where: { $0.hasPrefix("* BYE") }) {
            lost()
            return
        }
        guard !pushes.isEmpty else { return }
        do { try reload(marking: true) } catch {
            lost()
            return
        }
        if let last = pushes.last(where: { $0.hasPrefix("* EVENT ") }) { status = "last change: " + String(last.dropFirst(2)) }
    }

    private func lost() {
        conn = nil
        status = "connection lost; reconnecting…"
    }

    /// Handles a key; true to leave.
    private func key(_ k: Int32) -> Bool {
        if k == -1 { return false }  // no key within the wait
        if confirming != nil { return confirm(k) }
        let last = max(0, rows.count - 1)
        switch k {
        case Int32(UInt8(ascii: "q")), 3, 27: return true
        case KEY_UP, Int32(UInt8(ascii: "k")): selected = max(0, selected - 1)
        case KEY_DOWN, Int32(UInt8(ascii: "j")): selected = min(last, selected + 1)
        case KEY_PPAGE: selected = max(0, selected - pageRows)
        case KEY_NPAGE: selected = min(last, selected + pageRows)
        case KEY_HOME, Int32(UInt8(ascii: "g")): selected = 0
        case KEY_END, Int32(UInt8(ascii: "G")):
            loadAll()
            selected = max(0, rows.count - 1)
        case 10, 13, KEY_ENTER, KEY_RIGHT: enterOrAct()
        case KEY_LEFT, KEY_BACKSPACE, 127, 8: go(up: true)
        default: return act(k)
        }
        loadNear()
        return false
    }

    /// Enter drills into a list row, and on a setting's option or a menu entry acts.
    private func enterOrAct() {
        guard selected < rows.count else { return }
        if rows[selected].split(separator: " ", maxSplits: 1).first?.hasSuffix("/") == true { return enter() }
        actOnEnter()
    }

    var pageRows: Int { max(1, Int(tabula_curses_lines()) - 4) }

    /// Drills into the selected row when it is a list (`name/  …`).
    private func enter() {
        guard selected < rows.count else { return }
        let first = rows[selected].split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
        guard first.hasSuffix("/") else { return }
        path = (path == "/" ? "" : path) + "/" + first.dropLast()
        go(up: false)
    }

    private func go(up: Bool) {
        if up {
            guard path != "/" else { return }
            path = ModelPathText.parent(path)
        }
        _ = try? conn?.request("UNWATCH")
        selected = 0
        top = 0
        rows = []
        changed.removeAll()
        do { try open() } catch { status = "\(error)" }
    }
}

/// Paths as text, for the view's navigation.
enum ModelPathText {
    static func parent(_ path: String) -> String {
        let parts = path.split(separator: "/").dropLast()
        return parts.isEmpty ? "/" : "/" + parts.joined(separator: "/")
    }
}
