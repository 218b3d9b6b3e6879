import Foundation
import Testing
import TabulaClient
import TabulaProtocol
import TabulaServer

/// A `WATCH … FROM rev SNAPSHOT` replay that the history overtakes after its reply goes on
/// as a snapshot in the same stream: `* SNAPSHOT prefix why`, the rows of the list as it is,
/// `* SYNCED rev`, then every live event after `rev`; never a goodbye for want of history.
@Suite struct SnapshotInStreamTests {
    /// A server whose memory keeps 2,000 changes, with 2,000 items of 4 KiB (8 MB: more than
    /// the sockets take), and a watcher that asked `FROM 1 SNAPSHOT` of `/items` and reads
    /// nothing until 2,000 more changes have moved the history past its replay (FROM 0 would
    /// be a snapshot at once: the rows as loaded). `meanwhile` runs before those changes. (The
    /// replay goes on while the sockets take it, so the history may overtake it during them.)
    static func overtaken(
        json: Bool = false, _ configure: (inout ServerConfig) -> Void = { _ in },
        meanwhile: (Server) throws -> Void = { _ in }, _ body: (TabulaConnection, LineConnection) throws -> Void
    ) throws {
        try withServer({
            $0.historyInMemory = 2_000
            $0.historyBytesInMemory = 64 << 20
            configure(&$0)
        }) { s in
            let writer = try connect(s)
            try LargeReplayTests.addItems(writer, 2_000, size: 4 * 1024)
            let watcher = try rawConnect(s)
            if json {
                try watcher.send("FORMAT json")
                _ = try watcher.readLine(timeout: 30)
            }
            try watcher.send("WATCH /items FROM 1 SNAPSHOT")
            let ack = try watcher.readLine(timeout: 30) ?? "nothing"
            #expect(ack.contains("watching /items at rev 2000; replaying"), "\(ack.prefix(100))")
            try meanwhile(s)
            try LargeReplayTests.addItems(writer, 2_000, size: 64)
            try body(writer, watcher)
        }
    }

    @Test func anOvertakenReplayGoesOnAsASnapshotOfTheListAsItIsThenLive() throws {
        try Self.overtaken { writer, watcher in
            // The replay, in order, to where the history moved past it.
            var replayed: UInt64 = 1
            var marker: String?
            while marker == nil, let l = try watcher.readLine(timeout: 30) {
                if l.hasPrefix("* SNAPSHOT ") {
                    marker = l
                } else {
                    guard TabulaConnection.revision(of: l) == replayed + 1 else {
                        Issue.record("after event \(replayed): \(l.prefix(60))")
                        return
                    }
                    replayed += 1
                }
            }
            #expect(
                marker?.hasPrefix("* SNAPSHOT /items the history moved past revision \(replayed) while it was replayed")
                    == true, "\(marker ?? "no marker")")
            // The rows, then the marker that ends them (events before the rows are the old
            // watch's: of revisions the rows hold).
            var rows: [String] = []
            var synced: UInt64?
            while synced == nil, let l = try watcher.readLine(timeout: 30) {
                if l.hasPrefix("* ROW ") {
                    rows.append(String(l.dropFirst(6)))
                } else if l.hasPrefix("* SYNCED ") {
                    synced = UInt64(l.dropFirst(9))
                } else {
                    #expect(rows.isEmpty && l.hasPrefix("* EVENT "), "\(l.prefix(60))")
                }
            }
            // The rows are the list at `synced` (items are never changed here, and each
            // revision added one: item N at revision N - 4), then every later change, live.
            let at = try #require(synced)
            #expect(at > replayed && at <= 4_000)
            let listed = try writer.request("LS /items LIMIT 10000").data
            let items = { (rows: [String]) in rows.filter { !$0.hasPrefix("==") } }
            let same = items(rows) == items(listed).filter { (Int($0.prefix { $0 != " " }) ?? 0) <= at + 4 }
            #expect(same, "\(items(rows).count) item rows sent at revision \(at)")  // (8 MB: not printed)
            #expect(rows.first == "== Cheap Items (< $50): \(at + 2) items")
            for rev in stride(from: at + 1, through: 4_000, by: 1) {  // (none when the rows hold all)
                let l = try watcher.readLine(timeout: 30) ?? "nothing"
                guard l.hasPrefix("* EVENT \(rev) add /items/\(rev + 4) ") else {
                    Issue.record("expected the live event \(rev): \(l.prefix(60))")
                    return
                }
            }
            // And the connection's next request answered after what followed.
            #expect(try writer.request("ADD /items late 5").isOK)
            try watcher.send("PING after")
            #expect(try watcher.readLine(timeout: 30)?.hasPrefix("* EVENT 4001 add /items/4005") == true)
            #expect(try watcher.readLine(timeout: 30) == "OK after")
        }
    }

    @Test func anOvertakenReplayWhoseSnapshotFindsNoPlaceEndsWithAGoodbyeThatSaysWhy() throws {
        try Self.overtaken(
            { $0.maxSnapshots = 1 },
            meanwhile: { s in
                // The one place, held by a snapshot of 8 MB read slowly: a line of 4 KiB every
                // 20 ms, so that it goes on (a snapshot unread for 3 s gives its place back) and
                // lasts well past the 2,000 changes made next, which take seconds under the
                // thread sanitizer. The reader stops when the server closes the connection.
                let holder = HandedOver(try rawConnect(s))
                try holder.connection.send("WATCH /items SNAPSHOT")
                let held = try holder.connection.readLine(timeout: 30) ?? "nothing"
                #expect(held.hasSuffix("sending a snapshot"), "\(held.prefix(100))")
                Thread.detachNewThread {
                    while (try? holder.connection.readLine(timeout: 30)) != nil { usleep(20_000) }
                }
            }
        ) { _, watcher in
            var bye: String?
            var marker = false
            while bye == nil, let l = try watcher.readLine(timeout: 30) {
                if l.hasPrefix("* SNAPSHOT /items ") { marker = true }
                if l.hasPrefix("* BYE") { bye = l }
            }
            #expect(marker)
            #expect(
                bye?.contains("no snapshot could be sent instead (1 snapshots are being sent") == true,
                "\(bye ?? "no BYE")")
            #expect(bye?.contains("reconnect and WATCH /items SNAPSHOT") == true, "\(bye ?? "no BYE")")
        }
    }

    @Test func aCopyKeptInJSONFromTheEventsAloneEqualsTheListAfterItsReplayGoesOnAsASnapshot() throws {
        try Self.overtaken(json: true) { writer, watcher in
            // Everything the watcher was sent, into a copy kept as a client written from
            // Protocol.md keeps one (`ReplicaFeed`): the replay, the snapshot, then live.
            var feed = ReplicaFeed(path: "/items")
            _ = feed.connected(historyID: "h")
            _ = feed.connected(historyID: "h")  // (a resume: the copy's history seen before)
            _ = feed.takeReply(ok: true, message: "watching /items at rev 2000; replaying 1999 events")
            var marker = false, last: UInt64 = 0
            var synced = false
            while !synced || last < 4_000, let l = try watcher.readLine(timeout: 30) {
                guard let push = TabulaConnection.push(l) else { continue }
                if case .snapshot = push { marker = true }
                if case .event(let e) = push, marker { last = max(last, e.rev) }
                if case .synced(let rev) = push, marker {
                    synced = true
                    last = max(last, rev)
                }
                // (This copy holds nothing of revision 1: the replay's events are not its.)
                if marker { _ = feed.take(push) }
            }
            #expect(
                marker && feed.phase == .live && feed.snapshots == 1,
                "\(marker) \(feed.phase) \(feed.snapshots) \(last)")
            let listed = try writer.request("LS /items LIMIT 10000").data.filter { !$0.hasPrefix("==") }
            let paths = listed.map { "/items/" + $0.prefix { $0 != " " } }
            let same = feed.replica.entries.map(\.path) == paths
            #expect(same, "\(feed.replica.rowCount) rows kept, \(paths.count) listed")
        }
    }
}

/// A connection handed to another thread, which alone uses it from then on.
private final class HandedOver: @unchecked Sendable {
    let connection: LineConnection
    init(_ connection: LineConnection) { self.connection = connection }
}
