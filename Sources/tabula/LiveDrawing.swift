@preconcurrency import CNcurses
import Foundation
import TabulaClient
import TabulaProtocol

/// How the live view draws: a header with the path, revision and position (`12/1500`), the
/// rows with the cursor and the rows that just changed highlighted, the section a scrolled
/// list is in kept at the top, the orders beside the menu with the newest marked, and the
/// status line. Every text the server sent is made safe for the terminal first.
extension LiveView {
    func draw() {
        erase()
        let cols = Int(tabula_curses_cols()), lines = Int(tabula_curses_lines())
        tabula_curses_attr(1, tabula_curses_pair(2) | tabula_curses_bold())
        let count = total.map { "\($0)" } ?? (more == nil ? "\(rows.count)" : "\(rows.count)+")
        put(0, 0, "tabula live \(path)   rev \(rev)   \(rows.isEmpty ? 0 : selected + 1)/\(count)   ↑↓ select  Enter open/act  ← back  ? keys  q quit", width: cols)
        tabula_curses_attr(0, tabula_curses_pair(2) | tabula_curses_bold())
        let height = max(1, lines - 3)
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
        put(lines - 1, 0, status, width: cols)
        tabula_curses_attr(0, tabula_curses_dim())
        refresh()
        let now = Date()
        changed = changed.filter { now.timeIntervalSince($0.value) < 1.5 }
    }

    var isMenu: Bool { path == "/menu" || path.hasPrefix("/menu/") }

    private func drawRows(height: Int, width: Int) {
        let now = Date()
        for i in 0..<min(height, max(0, rows.count - top)) {
            let index = top + i
            let row = rows[index]
            var attr: Int32 = 0
            if let at = changed[row], now.timeIntervalSince(at) < 1.5 { attr |= tabula_curses_pair(1) }
            if index == selected { attr |= tabula_curses_reverse() }
            if row.hasPrefix(RowMarks.sectionHeader) { attr |= tabula_curses_bold() }
            tabula_curses_attr(1, attr)
            put(2 + i, 0, (index == selected ? "> " : "  ") + Renderer.plain(index < shown.count ? shown[index] : row), width: width)
            tabula_curses_attr(0, attr)
        }
    }

    /// The orders beside the menu, the newest (last) marked.
    private func drawOrders(x: Int, width: Int, height: Int) {
        put(1, x, "Orders (\(ordersTotal))", width: width)
        let visible = orders.suffix(height)
        for (i, o) in visible.enumerated() {
            let newest = i == visible.count - 1
            if newest { tabula_curses_attr(1, tabula_curses_bold()) }
            put(2 + i, x, (newest ? "▶ " : "  ") + o, width: width)
            if newest { tabula_curses_attr(0, tabula_curses_bold()) }
        }
    }

    /// The header of the section the top row is in, once the section's own header scrolled
    /// away (a price section of /items, say).
    private func stickyHeader() -> String? {
        guard top > 0, top < rows.count, !rows[top].hasPrefix(RowMarks.sectionHeader) else { return nil }
        return rows[..<top].last { $0.hasPrefix(RowMarks.sectionHeader) }
    }

    func put(_ y: Int, _ x: Int, _ s: String, width: Int) {
        guard width > 0 else { return }
        mvaddstr(Int32(y), Int32(x), String(TerminalText.safe(s).prefix(width)))
    }
}
