import Foundation
import Observation
import TabulaProtocol

/// One list of a Tabula server, kept live: a `ListReplica` fed by a watch, reconnected with
/// back-off, resumed from its one revision (`WATCH path FROM rev SNAPSHOT`: the history
/// replayed when the server still holds it, else a snapshot), and re-snapshot when an event
/// cannot be applied. With `credentials` it logs in first (on a server with `--users`); with
/// a `.tls` endpoint the server's certificate and name are verified. Observable, for
/// SwiftUI; `changes` gives one `ListChange` per revision, for a diffable data source (one
/// consumer). Writes go through `write`, on one kept connection, with `IF REV` of the row shown.
@MainActor @Observable
public final class LiveList {
    /// Where the copy stands.
    public enum State: Sendable, Equatable {
        /// Not connected (why); it retries.
        case offline(String)
        case connecting
        /// Receiving a snapshot.
        case snapshot
        /// Receiving a replay of what it missed.
        case resuming
        /// Every change through `rev` is shown, and the rest arrive as they happen.
        case live(rev: UInt64)
        /// The server sent more than a live copy keeps (why: a list past
        /// `ReplicaFeed.mostRows`): the copy is emptied and `run` returns, without retrying.
        case stopped(String)
        /// The server refused the login (its reply: `ERR WRONGPASS …`, or a server without
        /// users): `run` returns, as the same login would be refused again.
        case refused(String)
    }

    /// The longest line it takes from a server: a push is one row or one event, a few KiB;
    /// a longer line ends the connection (`.offline` says so) rather than be buffered.
    public static let mostLineBytes = 1 << 20

    public let path: String
    public let endpoint: Endpoint
    /// Who it logs in as (nil: no login, for a server without `--users`).
    public let credentials: Credentials?
    public var replica: ListReplica { feed.replica }
    public private(set) var state: State = .offline("not started")
    /// Counts, for the curious and for tests.
    public var snapshots: Int { feed.snapshots }
    public var resumes: Int { feed.resumes }
    public private(set) var connections = 0

    /// Each applied revision's change, in order (a snapshot is a `reset`).
    @ObservationIgnored public let changes: AsyncStream<ListChange>
    @ObservationIgnored private let changeSink: AsyncStream<ListChange>.Continuation
    @ObservationIgnored private var connection: AsyncTabulaConnection?
    @ObservationIgnored private let writer: KeptConnection
    /// The history id of the greeting, while the login it waits for is answered.
    @ObservationIgnored private var loggingIn: String?
    /// Why the last connection was let go (a refused login or watch), said while it waits.
    @ObservationIgnored private var letGo: String?
    /// The copy went live on the current connection (the back-off starts again after it).
    @ObservationIgnored private var wentLive = false
    private var feed: ReplicaFeed

    /// Keeps `path` of `endpoint`, at most `mostRows` rows (`ReplicaFeed.mostRows`, or fewer),
    /// logged in as `credentials` when given; with `filter: .favorites`, `/items` as its
    /// favourites (`FILTER favorites`: positions counted among them).
    public init(
        path: String, endpoint: Endpoint, credentials: Credentials? = nil, mostRows: Int = ReplicaFeed.mostRows,
        filter: ItemFilter = .all
    ) {
        self.path = path
        self.endpoint = endpoint
        self.credentials = credentials
        writer = KeptConnection(endpoint, credentials: credentials, filter: filter)
        feed = ReplicaFeed(path: path, mostRows: mostRows, filter: filter)
        (changes, changeSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(10_000))
    }

    /// The sections, in order.
    public var sections: [ListReplica.Section] { replica.sections }

    /// Keeps the list until the task is cancelled: connects, logs in, watches, applies, and
    /// after a lost connection or a refused watch (`ERR LIMIT`, say) waits (50 ms, doubling
    /// to 2 s) and resumes; `.offline` says why meanwhile. A refused login ends it (`.refused`).
    public func run() async {
        var wait = 0.05
        while !Task.isCancelled {
            state = .connecting
            do {
                let c = try await AsyncTabulaConnection.connect(
                    endpoint, maxLine: LiveList.mostLineBytes, backlog: AsyncTabulaConnection.mostBacklog)
                connection = c
                connections += 1
                letGo = nil
                await follow(c)
                c.close()
                connection = nil
                switch state {
                case .stopped, .refused: return
                default: break
                }
                feed.lost()
                state = .offline(letGo ?? c.endReason ?? "the server closed the connection")
            } catch {
                state = .offline("\(error)")
            }
            // The wait starts again from 50 ms only after the copy went live: a connection
            // whose login or watch is refused each time waits longer each time.
            if wentLive { wait = 0.05 }
            wentLive = false
            try? await Task.sleep(nanoseconds: UInt64(wait * 1e9))
            wait = min(wait * 2, 2)
        }
        connection?.close()
    }

    /// Sends `request` on the list's kept write connection (made at the first write, logged
    /// in as the list is); with `ifRevOf`, only if that row's entry has not changed since the
    /// revision shown (`IF REV`). A row the copy does not hold throws before anything is sent:
    /// the condition is never dropped.
    public func write(_ request: String, ifRevOf entry: String? = nil) async throws -> ServerReply {
        var line = request
        if let entry {
            guard let shown = replica.entry(entry) else {
                throw ClientError.refused(
                    "IF REV of \(entry): this copy of \(path) holds no such row (yet), so nothing was sent")
            }
            line += " IF REV \(shown.rev)"
        }
        return try await writer.send(line)
    }

    /// Connections its writes made (one, unless one broke).
    public var writeConnections: Int { writer.made }

    private func follow(_ c: AsyncTabulaConnection) async {
        for await line in c.lines {
            c.took(line)
            switch state {
            case .stopped, .refused: return
            default: break
            }
            if loggingIn != nil, WireDecoder.textPush(line) == nil {
                loggedIn(line, on: c)
                continue
            }
            // A text error: FORMAT json was refused (`ERR NOAUTH`: the server wants a login).
            if line.hasPrefix("ERR ") {
                letGo = line
                state = .offline(line)
                c.close()
                continue
            }
            // The greeting comes before FORMAT json takes effect: a text line.
            if let push = WireDecoder.textPush(line) {
                take(push, on: c)
                continue
            }
            guard let v = JSONParser.parse(line) else { continue }
            if let push = WireDecoder.jsonPush(v) {
                take(push, on: c)
            } else if let message = v["message"]?.stringValue {
                let ok = v["ok"] == .bool(true)
                // A refusal is said as the text protocol says it: `ERR LIMIT …`.
                takeReply(ok: ok, message: ok ? message : "ERR \(v["code"]?.stringValue ?? "?") \(message)")
            }
        }
    }

    private func take(_ push: Push, on c: AsyncTabulaConnection) {
        if case .hello(_, _, _, let id) = push {
            guard let credentials else {
                for request in feed.connected(historyID: id) { c.send(request) }
                return
            }
            loggingIn = id
            c.send(credentials.authLine)
            return
        }
        switch feed.take(push) {
        case .changed(let change): changeSink.yield(change)
        case .send(let requests): for request in requests { c.send(request) }
        case .stop(let why):
            state = .stopped(why)
            changeSink.yield(ListChange(rev: feed.replica.rev, reset: true))
            return
        case .none: break
        }
        showPhase()
    }

    /// The login's reply (text: FORMAT json comes after it): the watch follows an `OK`; too
    /// many logins at once (`ERR LIMIT`) is tried again after a wait; any other refusal (a
    /// wrong secret, a server without users) ends the list, as it would be refused again.
    private func loggedIn(_ reply: String, on c: AsyncTabulaConnection) {
        guard let id = loggingIn.take() else { return }
        if reply.hasPrefix("OK") {
            for request in feed.connected(historyID: id) { c.send(request) }
        } else if reply.hasPrefix("ERR LIMIT") {
            letGo = reply
            c.close()
        } else {
            state = .refused(reply)
            c.close()
        }
    }

    /// A refused watch (`ERR LIMIT …`, `ERR EXPIRED …`) lets the connection go: `run` says why
    /// and tries again after its wait.
    private func takeReply(ok: Bool, message: String) {
        if feed.takeReply(ok: ok, message: message) == false {
            letGo = message
            state = .offline(message)
            connection?.close()
        } else {
            showPhase()
        }
    }

    private func showPhase() {
        switch feed.phase {
        case .idle: break
        case .snapshot: state = .snapshot
        case .resuming: state = .resuming
        case .live:
            state = .live(rev: feed.replica.rev)
            wentLive = true
        case .tooLarge(let why): state = .stopped(why)
        }
    }
}
