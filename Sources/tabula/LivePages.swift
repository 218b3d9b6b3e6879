import Foundation
import TabulaClient
import TabulaProtocol

/// The live view's paging: a list is read a page at a time (`LS … LIMIT 1000`, then the
/// request the reply's `more:` hint names), as far as the cursor needs and no further, so a
/// list of any length scrolls to its end and each redraw costs the rows on hand. The orders
/// beside the menu are the newest.
extension LiveView {
    /// Rows in one page of the list.
    static let pageSize = 1_000
    /// Rows the view holds at most (End loads up to this).
    static let mostRows = 100_000

    /// The list from its start, at least `wanted` rows of it while there are more; sets
    /// `more`, `total` and the status. Nil when refused (the status says why).
    func list(atLeast wanted: Int) throws -> [String]? {
        guard let c = conn else { return nil }
        let r = try c.request("LS \(Quoting.quote(path)) LIMIT \(LiveView.pageSize)")
        guard r.isOK else {
            status = r.final
            return nil
        }
        var listed = r.data
        more = LiveView.nextPage(r.reply.message)
        total = LiveView.total(r.reply.message)
        status = String(r.reply.message.prefix { $0 != ";" })
        while listed.count < min(wanted, LiveView.mostRows), let next = more {
            let page = try c.request(next)
            guard page.isOK else { break }
            listed += page.data
            more = LiveView.nextPage(page.reply.message)
        }
        return listed
    }

    /// Reads the next page when the cursor is within a screen of the end of what is loaded.
    func loadNear() {
        guard more != nil, selected + 2 * pageRows >= rows.count, rows.count < LiveView.mostRows else { return }
        appendPages(until: rows.count + 1)
    }

    /// Reads every page there is (up to `mostRows` rows): End goes to the real end.
    func loadAll() { appendPages(until: LiveView.mostRows) }

    private func appendPages(until wanted: Int) {
        guard let c = conn else { return }
        while rows.count < wanted, let next = more, let page = try? c.request(next), page.isOK {
            rows += page.data
            more = LiveView.nextPage(page.reply.message)
        }
        shown = LiveRow.display(rows)
    }

    /// The newest orders, as many as fit beside the menu (newest last). After the first
    /// reading only the orders after the last one held are asked for, so a change costs what
    /// it added; every page is read again only when the count says some went (a removal).
    func newestOrders(keep: Int = 200) throws -> [String] {
        guard let c = conn else { return [] }
        if let last = orders.last.flatMap(LiveRow.itemID) {
            let r = try c.request("LS /orders LIMIT \(RequestParser.maxLimit) AFTER \(last)")
            if r.isOK, LiveView.nextPage(r.reply.message) == nil, LiveView.total(r.reply.message) == ordersTotal + r.data.count {
                ordersTotal += r.data.count
                return Array((orders + r.data).suffix(keep))
            }
        }
        var r = try c.request("LS /orders LIMIT \(RequestParser.maxLimit)")
        ordersTotal = LiveView.total(r.reply.message) ?? r.data.count
        var kept = Array(r.data.suffix(keep))
        while r.isOK, let next = LiveView.nextPage(r.reply.message) {
            r = try c.request(next)
            kept = Array((kept + r.data).suffix(keep))
        }
        return kept
    }

    /// `LS /orders LIMIT 1000 AFTER 1000` from `1000 of 1500; more: LS /orders LIMIT 1000 AFTER 1000`.
    static func nextPage(_ message: String) -> String? {
        guard let r = message.range(of: "; more: ") else { return nil }
        return String(message[r.upperBound...])
    }

    /// 1500 from `1000 of 1500; more: …`.
    static func total(_ message: String) -> Int? {
        guard let r = message.range(of: " of ") else { return nil }
        return Int(message[r.upperBound...].prefix { $0.isNumber })
    }
}
