@preconcurrency import CNcurses
import Foundation
import Glibc
import TabulaClient
import TabulaProtocol

/// `tabula live PATH` and `\live PATH`: a full-screen table of a list that changes in place
/// on every change under it — the settings' master rows with each selection, a setting's
/// options with the selected one marked, a catalog level and its leaves as their kind, the
/// items in their price sections with favourites and "No Items", and for `/menu` the menu
/// beside the live order list (seed 003's split view). Rows that just changed are
/// highlighted for a moment.
///
/// It keeps a copy of the list (`ReplicaFeed`: a snapshot, then the events patch it, each by
/// the position it names) and draws from the copy: nothing is read again per change. After
/// a cut it reconnects with a back-off and resumes from the copy's revision. Arrows, j/k,
/// g/G, PgUp/PgDn move, Enter opens or acts, ← or Backspace go up, `q` (or Ctrl-C) returns
/// with the screen restored; the keys that act are in `LiveActions`, the drawing in
/// `LiveDrawing`, the connection's lines in `LiveSync`.
final class LiveView {
    private let connect: () throws -> TabulaConnection
    var conn: TabulaConnection?
    /// The path asked for, and what is kept for it.
    var path: String
    var place: LivePlace
    var feed: ReplicaFeed
    /// The orders beside the menu.
    var ordersFeed: ReplicaFeed?
    /// The feeds whose snapshot or replay is under way, in the order they were asked for
    /// (the server sends them in that order): its rows and `SYNCED` are theirs.
    var syncing: [LiveSync.Which] = []
    /// What is drawn, from the copy (`LiveRow`).
    var lines: [LiveLine] = []
    var orderLines: [LiveLine] = []
    /// The copy changed since `lines` were made.
    var stale = true
    /// Lines that just changed, by key, and when.
    var changed: [String: Date] = [:]
    var selected = 0
    /// The place the view came back from (an entry's or a branch's path): its row takes the
    /// cursor when the list's lines first come.
    var arriving: String?
    var top = 0
    /// The chosen tab of a leaf shown as tabs (Tab switches).
    var tab = 0
    /// When to try to connect again after a cut, and the wait after that (doubling to 5 s).
    private var retryAt = Date.distantPast
    private var retryDelay = 0.1
    var status = ""
    /// An action waiting for y or n (a removal).
    var confirming: String?
    /// Only favourites are shown (`F`): the copy holds them all, the view shows these.
    var favoritesOnly = false
    /// Bytes read from the terminal and not yet taken as a key (`LiveInput`); once the view
    /// has left, those typed after the key that left, for the prompt.
    var input: [UInt8] = []

    init(path: String, connect: @escaping () throws -> TabulaConnection) {
        self.path = path
        self.connect = connect
        place = LivePlace.of(path)
        feed = ReplicaFeed(path: place.list)
    }

    /// Runs until `q`; returns an error message if the view could not start (the path
    /// refused: `refused`; the server unreachable otherwise).
    func run() -> (message: String, refused: Bool)? {
        do { try open() } catch let e as LiveRefusal { return (e.message, true) } catch { return ("\(error)", false) }
        tabula_curses_locale()
        initscr()
        raw()  // Ctrl-C is a key here (it leaves, as q does), not a signal
        noecho()
        tabula_curses_setup()  // the terminal's bytes as they come (`nextKey` decodes them), a 100 ms wait
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
            if tabula_curses_follow_size() != 0 { stale = true }  // a leaf's text wraps to the width
            render()
            draw()
            quit = key(nextKey())
            follow()
        }
        return nil
    }

    /// Connects if not connected and watches the list (and the orders beside the menu), each
    /// with a snapshot or a resume; waits until the list is held.
    private func open() throws {
        let c = try conn ?? connect()
        conn = c
        if let refusal = try start(.main, on: c) {
            guard place.entry == nil, refusal.contains("is not one") else { throw LiveRefusal(message: refusal) }
            place = LivePlace.entry(of: path)  // a leaf, an order, a menu entry: shown in its list
            feed = ReplicaFeed(path: place.list)
            if let again = try start(.main, on: c) { throw LiveRefusal(message: again) }
        }
        if isMenu {
            if ordersFeed == nil { ordersFeed = ReplicaFeed(path: "/orders") }
            _ = try start(.orders, on: c)
        }
        try waitUntilHeld(on: c)
        stale = true
    }

    /// Takes the events that came; reconnects when the server went away.
    private func follow() {
        guard let c = conn else {
            guard Date() >= retryAt else { return }
            if (try? open()) != nil {
                status = "reconnected"
                retryDelay = 0.1
            } else {
                lost()
                retryAt = Date().addingTimeInterval(retryDelay)
                status = "connection lost; reconnecting in \(String(format: "%.1f", retryDelay)) s…"
                retryDelay = min(5, retryDelay * 2)
            }
            return
        }
        let pushes = c.pollPushes()
        if c.line.isClosed || pushes.contains(where: { TabulaConnection.push($0)?.isBye == true }) {
            lost()
            status = "connection lost; reconnecting…"
            return
        }
        take(pushes, on: c)
    }

    /// The connection is gone: the copies wait for the next one, which resumes them.
    func lost() {
        conn = nil
        syncing = []
        feed.lost()
        ordersFeed?.lost()
    }

    /// Handles a key; true to leave (`q`, Esc or Ctrl-C).
    private func key(_ k: TerminalKey?) -> Bool {
        guard let k else { return false }  // no key within the wait
        if confirming != nil { return confirm(k) }
        let last = max(0, lines.count - 1)
        switch k {
        case .byte(UInt8(ascii: "q")), .byte(3), .byte(27): return true
        case .up, .byte(UInt8(ascii: "k")): selected = max(0, selected - 1)
        case .down, .byte(UInt8(ascii: "j")): selected = min(last, selected + 1)
        case .pageUp: selected = max(0, selected - pageRows)
        case .pageDown: selected = min(last, selected + pageRows)
        case .home, .byte(UInt8(ascii: "g")): selected = 0
        case .end, .byte(UInt8(ascii: "G")): selected = last
        case .byte(9):  // the next tab of a leaf shown as tabs
            tab += 1
            stale = true
        case .byte(10), .byte(13), .right: enterOrAct()
        case .left, .byte(127), .byte(8):
            go(to: place.entry != nil || place.section != nil ? place.list : LivePlace.parent(path), unlessAt: "/")
        case .byte(let b): return act(b)
        case .insert, .delete, .other: break
        }
        return false
    }

    var pageRows: Int { max(1, Int(tabula_curses_lines()) - 4) }

    /// Goes to `target` (a list or an entry), unless the view is at `unlessAt`.
    func go(to target: String, unlessAt: String? = nil) {
        guard path != unlessAt else { return }
        if let c = conn {
            _ = try? c.request("UNWATCH")
            _ = c.takePushes()  // the old watches' last events: not the new place's
        }
        arriving = path
        path = target
        place = LivePlace.of(target)
        feed = ReplicaFeed(path: place.list)
        ordersFeed = nil
        syncing = []
        selected = 0
        top = 0
        tab = 0
        lines = []
        changed.removeAll()
        do { try open() } catch let e as LiveRefusal { status = e.message } catch { status = "\(error)" }
    }
}
