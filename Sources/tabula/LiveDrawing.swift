@preconcurrency import CNcurses
import Foundation
import TabulaClient
import TabulaProtocol

/// How the live view draws: a header with the path, the copy's revision and state, and the
/// position (`12/1500`), the lines with the cursor and the rows that just changed
/// highlighted, the section a scrolled list is in kept at the top, the orders beside the menu
/// with the newest marked, and the status line. Every text the server sent is made safe for
/// the terminal first.
extension LiveView {
    func draw() {
        erase()
        let cols = Int(tabula_curses_cols()), screenLines = Int(tabula_curses_lines())
        tabula_curses_attr(1, tabula_curses_pair(2) | tabula_curses_bold())
        let (position, count) = LiveView.position(of: selected, in: lines)
        put(
            0, 0,
            "tabula live \(path)   rev \(feed.replica.rev)\(phaseNote)   \(position)/\(count)   ↑↓ select  Enter open/act  ← back  ? keys  q quit",
            width: cols)
        tabula_curses_attr(0, tabula_curses_pair(2) | tabula_curses_bold())
        let height = max(1, screenLines - 3)
        if selected < top { top = selected }
        if selected >= top + height { top = selected - height + 1 }
        let split = isMenu && cols >= 50
        let leftWidth = split ? cols / 2 - 1 : cols
        if let header = stickyHeader() {
            tabula_curses_attr(1, tabula_curses_bold())
            put(1, 0, "  " + Renderer.plain(header), width: leftWidth)
            tabula_curses_attr(0, tabula_curses_bold())
        }
        drawRows(height: height, width: leftWidth)
        if split { drawOrders(x: leftWidth + 2, width: cols - leftWidth - 2, height: height) }
        tabula_curses_attr(1, tabula_curses_dim())
        put(screenLines - 1, 0, status, width: cols)
        tabula_curses_attr(0, tabula_curses_dim())
        refresh()
        let now = Date()
        changed = changed.filter { now.timeIntervalSince($0.value) < 1.5 }
    }

    var isMenu: Bool { place.list == "/menu" || place.list.hasPrefix("/menu/") }

    /// The selected line's place among the rows (headers not counted), and how many rows.
    static func position(of selected: Int, in lines: [LiveLine]) -> (Int, Int) {
        var position = 0, count = 0
        for (i, l) in lines.enumerated() where l.kind == .entry || l.kind == .detail {
            count += 1
            if i <= selected { position = count }
        }
        return (count == 0 ? 0 : max(1, position), count)  // on a header: the first row's place
    }

    /// The copy's state when it is not live: `(snapshot)`, `(resuming)`, `(offline)`.
    private var phaseNote: String {
        if conn == nil { return " (offline)" }
        switch feed.phase {
        case .live: return ""
        case .snapshot: return " (snapshot)"
        case .resuming: return " (resuming)"
        case .idle: return " (connecting)"
        case .tooLarge: return " (too large)"
        }
    }

    private func drawRows(height: Int, width: Int) {
        let now = Date()
        for i in 0..<min(height, max(0, lines.count - top)) {
            let index = top + i
            let line = lines[index]
            var attr: Int32 = 0
            if let at = changed[line.key], now.timeIntervalSince(at) < 1.5 { attr |= tabula_curses_pair(1) }
            if index == selected { attr |= tabula_curses_reverse() }
            if line.kind == .header { attr |= tabula_curses_bold() }
            tabula_curses_attr(1, attr)
            put(2 + i, 0, (index == selected ? "> " : "  ") + Renderer.plain(line.text), width: width)
            tabula_curses_attr(0, attr)
        }
    }

    /// The orders beside the menu, the newest (last) marked.
    private func drawOrders(x: Int, width: Int, height: Int) {
        put(1, x, "Orders (\(ordersFeed?.replica.entries.count ?? 0))", width: width)
        let visible = orderLines.suffix(height)
        for (i, o) in visible.enumerated() {
            let newest = i == visible.count - 1
            if newest { tabula_curses_attr(1, tabula_curses_bold()) }
            put(2 + i, x, (newest ? "▶ " : "  ") + Renderer.plain(o.text), width: width)
            if newest { tabula_curses_attr(0, tabula_curses_bold()) }
        }
    }

    /// The header of the section the top row is in, once the section's own header scrolled
    /// away (a price section of /items, say).
    private func stickyHeader() -> String? {
        guard top > 0, top < lines.count, lines[top].kind != .header else { return nil }
        return lines[..<top].last { $0.kind == .header }?.text
    }

    func put(_ y: Int, _ x: Int, _ s: String, width: Int) {
        guard width > 0 else { return }
        mvaddstr(Int32(y), Int32(x), String(TerminalText.safe(s).prefix(width)))
    }
}
