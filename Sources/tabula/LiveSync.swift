@preconcurrency import CNcurses
import Foundation
import TabulaClient
import TabulaProtocol

/// The live view's connection lines, in the order they came: every request goes through
/// `ask`, which takes the pushes that arrived before its reply first (a writer's own event
/// comes before its OK, so the copy shows an action when its answer is said), then the
/// reply. Pushes go to the copy they are for: an event by its path, a snapshot's rows and
/// its `SYNCED` to the feed whose snapshot is under way (the server sends one watch's
/// snapshot or replay whole before the next watch's reply).
extension LiveView {
    enum LiveSync {
        enum Which { case main, orders }
    }

    /// Starts `which`'s watch on `c`; the server's refusal, or nil.
    func start(_ which: LiveSync.Which, on c: TabulaConnection) throws -> String? {
        var requests: [String] = []
        update(which) { requests = $0.connected(historyID: c.historyID) }
        for r in requests {
            let reply = try ask(r, for: which, on: c)
            if let e = reply.reply.error { return "ERR \(e)" }
        }
        return nil
    }

    /// Reads until no snapshot or replay is under way (10 s at most), so the view opens on
    /// the list as it is.
    func waitUntilHeld(on c: TabulaConnection) throws {
        let deadline = Date().addingTimeInterval(10)
        while !syncing.isEmpty, Date() < deadline, !c.line.isClosed {
            guard let first = try c.waitPush(timeout: max(0, deadline.timeIntervalSinceNow), where: { _ in true })
            else { break }
            take([first] + c.takePushes(), on: c)
        }
    }

    /// Sends `line` and reads its reply; what came before the reply is taken first, then the
    /// reply is given to `which` (a watch's acknowledgement starts its snapshot or replay).
    @discardableResult
    func ask(_ line: String, for which: LiveSync.Which? = nil, on c: TabulaConnection) throws -> ServerReply {
        let reply = try c.request(line)
        take(c.takePushes(), on: c)
        if let which {
            var started = false
            update(which) { feed in
                let before = feed.phase
                _ = feed.takeReply(ok: reply.isOK, message: reply.reply.message)
                started = feed.phase != before && (feed.phase == .snapshot || feed.phase == .resuming)
            }
            if started { syncing.append(which) }
        }
        return reply
    }

    /// Gives each push to its copy, in order; then sends what a copy asked for (a snapshot
    /// again: the rest of the batch is the old watch's, which that copy now ignores).
    func take(_ pushes: [String], on c: TabulaConnection) {
        var asked: [(String, LiveSync.Which)] = []
        var tooLong: String?
        for line in pushes {
            guard let push = TabulaConnection.push(line) else { continue }
            for which in route(push) {
                var step = ReplicaFeed.Step.none
                update(which) { step = $0.take(push) }
                switch step {
                case .none: break
                case .changed(let change):
                    mark(change)
                    if case .event(let e) = push { status = "last change: rev \(e.rev) \(e.kind) \(e.path)" }
                case .send(let requests): asked += requests.map { ($0, which) }
                case .stop(let why): tooLong = why
                }
            }
            if case .synced = push, !syncing.isEmpty { syncing.removeFirst() }
        }
        if let why = tooLong { return dropTooLong(on: c, saying: why) }
        for (r, which) in asked { _ = try? ask(r, for: which, on: c) }
    }

    /// The list outgrew what the view keeps (`why`, the feed's words): it stops watching, and
    /// says so.
    private func dropTooLong(on c: TabulaConnection, saying why: String) {
        _ = try? c.request("UNWATCH")
        _ = c.takePushes()
        syncing = []
        feed = ReplicaFeed(path: place.list)
        stale = true
        status = why
    }

    /// The copies a push is for.
    private func route(_ push: Push) -> [LiveSync.Which] {
        switch push {
        case .event(let e):
            return ordersFeed != nil && (e.path == "/orders" || e.path.hasPrefix("/orders/")) ? [.orders] : [.main]
        case .snapshot(let prefix, _):  // a replay that goes on as a snapshot: syncing still
            return ordersFeed != nil && prefix == "/orders" ? [.orders] : [.main]
        case .row, .synced:
            if let first = syncing.first { return [first] }
            return ordersFeed == nil ? [.main] : [.main, .orders]  // a PROGRESS marker: for every watch
        case .hello, .bye:
            return []
        }
    }

    private func update(_ which: LiveSync.Which, _ body: (inout ReplicaFeed) -> Void) {
        stale = true
        switch which {
        case .main: body(&feed)
        case .orders: if ordersFeed != nil { body(&ordersFeed!) }
        }
    }

    /// Highlights the rows `change` touched.
    private func mark(_ change: ListChange) {
        let now = Date()
        for id in change.insertedIDs + change.movedIDs + change.updatedIDs { changed[id] = now }
    }

    /// Makes the lines from the copies when they changed, keeping the cursor on its line.
    func render() {
        guard stale else { return }
        stale = false
        let new: [LiveLine]
        if let entry = place.entry {
            if let e = feed.replica.entry(entry) {
                new = LiveRow.detail(of: e, width: Int(tabula_curses_cols()) - 2, tab: tab)
            } else {
                new =
                    feed.phase == .live
                    ? [LiveLine(key: "gone", text: "\(entry) is not there (removed?); ← goes back", kind: .detail)] : []
            }
        } else {
            new = LiveRow.lines(of: feed.replica, section: place.section, favoritesOnly: favoritesOnly)
        }
        // The same entry, not the same row number; a new place's first lines: the row it was
        // entered from, or the first row.
        selected = LiveCursor.follow(selected, from: lines, to: new, arriving: arriving)
        if !new.isEmpty { arriving = nil }
        if place.entry != nil {  // an entry's detail: its lines that read otherwise now
            let before = Dictionary(lines.map { ($0.key, $0.text) }, uniquingKeysWith: { a, _ in a })
            let now = Date()
            for l in new where before[l.key] != nil && before[l.key] != l.text { changed[l.key] = now }
        }
        lines = new
        if let orders = ordersFeed { orderLines = LiveRow.lines(of: orders.replica).suffix(200) }
    }
}
