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
/// with the screen restored; the keys that act are in `LiveActions`. It keeps its own
/// connection: after a reconnect it watches and lists again, so no change is lost from view.
final class LiveView {
    private let connect: () throws -> TabulaConnection
    var conn: TabulaConnection?
    var path: String
    var rows: [String] = []
    private var orders: [String] = []
    private var changed: [String: Date] = [:]
    var selected = 0
    private var top = 0
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
        cbreak()
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

    /// Connects (again), watches the path (and the orders beside the menu) and lists it.
    private func open() throws {
        let c = try connect()
        conn = c
        // An item's changes are events at /items/ID, not under its price section's path.
        let watched = try c.request("WATCH \(Quoting.quote(path.hasPrefix("/items/") ? "/items" : path))")
        if !watched.isOK { throw LiveRefusal(message: watched.final) }
        if isMenu { _ = try c.request("WATCH /orders") }
        try reload(marking: false)
    }

    private var isMenu: Bool { path == "/menu" || path.hasPrefix("/menu/") }

    /// Lists again; with `marking`, rows that are new or differ are highlighted for a moment.
    func reload(marking: Bool) throws {
        guard let c = conn else { return }
        let r = try c.request("LS \(Quoting.quote(path)) LIMIT 1000")
        guard r.isOK else {
            status = r.final
            return
        }
        let next = r.data
        if marking { for row in next where !rows.contains(row) { changed[row] = Date() } }
        rows = next
        rev = max(rev, c.lastRevision)
        if isMenu { orders = (try? c.request("LS /orders LIMIT 1000").data) ?? orders }
        selected = min(selected, max(0, rows.count - 1))
        status = r.reply.message
    }

    /// Takes the events that came (and redraws what they changed); reconnects when the server
    /// went away.
    private func follow() {
        guard let c = conn else {
            if (try? open()) != nil { status = "reconnected" }
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
        case KEY_END, Int32(UInt8(ascii: "G")): selected = last
        case 10, 13, KEY_ENTER, KEY_RIGHT: enterOrAct()
        case KEY_LEFT, KEY_BACKSPACE, 127, 8: go(up: true)
        default: return act(k)
        }
        return false
    }

    /// Enter drills into a list row, and on a setting's option or a menu entry acts.
    private func enterOrAct() {
        guard selected < rows.count else { return }
        if rows[selected].split(separator: " ", maxSplits: 1).first?.hasSuffix("/") == true { return enter() }
        actOnEnter()
    }

    private var pageRows: Int { max(1, Int(tabula_curses_lines()) - 4) }

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
        changed.removeAll()
        do { try open() } catch { status = "\(error)" }
    }

    private func draw() {
        erase()
        let cols = Int(tabula_curses_cols()), lines = Int(tabula_curses_lines())
        tabula_curses_attr(1, tabula_curses_pair(2) | tabula_curses_bold())
        put(0, 0, "tabula live \(path)   rev \(rev)   \(selected + 1)/\(rows.count)   ↑↓ select  Enter open/act  ← back  ? keys  q quit", width: cols)
        tabula_curses_attr(0, tabula_curses_pair(2) | tabula_curses_bold())
        let height = max(1, lines - 3)
        if selected < top { top = selected }
        if selected >= top + height { top = selected - height + 1 }
        let split = isMenu && cols >= 50
        let leftWidth = split ? cols / 2 - 1 : cols
        let now = Date()
        for (i, row) in rows.dropFirst(top).prefix(height).enumerated() {
            let index = top + i
            var attr: Int32 = 0
            if let at = changed[row], now.timeIntervalSince(at) < 1.5 { attr |= tabula_curses_pair(1) }
            if index == selected { attr |= tabula_curses_reverse() }
            if row.hasPrefix(RowMarks.sectionHeader) { attr |= tabula_curses_bold() }
            tabula_curses_attr(1, attr)
            put(2 + i, 0, (index == selected ? "> " : "  ") + Renderer.plain(row), width: leftWidth)
            tabula_curses_attr(0, attr)
        }
        if split {
            put(1, leftWidth + 2, "Orders (\(orders.count))", width: cols - leftWidth - 2)
            for (i, o) in orders.suffix(height).enumerated() { put(2 + i, leftWidth + 2, o, width: cols - leftWidth - 2) }
        }
        tabula_curses_attr(1, tabula_curses_dim())
        put(lines - 1, 0, status, width: cols)
        tabula_curses_attr(0, tabula_curses_dim())
        refresh()
        changed = changed.filter { now.timeIntervalSince($0.value) < 1.5 }
    }

    private func put(_ y: Int, _ x: Int, _ s: String, width: Int) {
        guard width > 0 else { return }
        mvaddstr(Int32(y), Int32(x), String(TerminalText.safe(s).prefix(width)))
    }
}

/// Paths as text, for the view's navigation.
enum ModelPathText {
    static func parent(_ path: String) -> String {
        let parts = path.split(separator: "/").dropLast()
        return parts.isEmpty ? "/" : "/" + parts.joined(separator: "/")
    }
}
