import Foundation
import Observation
import TabulaProtocol

/// One list of a Tabula server, kept live: a `ListReplica` fed by a watch, reconnected with
/// back-off, resumed from its one revision (`WATCH path FROM rev SNAPSHOT`: the history
/// replayed when the server still holds it, else a snapshot), and re-snapshot when an event
/// cannot be applied. Observable, for SwiftUI; `changes` gives one `ListChange` per revision,
/// for a diffable data source. Writes go through `write`, with `IF REV` of the row shown.
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
    }

    /// The longest line it takes from a server: a push is one row or one event, a few KiB;
    /// a longer line ends the connection (`.offline` says so) rather than be buffered.
    public static let mostLineBytes = 1 << 20

    public let path: String
    public let endpoint: Endpoint
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
    private var feed: ReplicaFeed

    /// Keeps `path` of `endpoint`, at most `mostRows` rows (`ReplicaFeed.mostRows`, or fewer).
    public init(path: String, endpoint: Endpoint, mostRows: Int = ReplicaFeed.mostRows) {
        self.path = path
        self.endpoint = endpoint
        feed = ReplicaFeed(path: path, mostRows: mostRows)
        (changes, changeSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(10_000))
    }

    /// The sections, in order.
    public var sections: [ListReplica.Section] { replica.sections }

    /// Keeps the list until the task is cancelled: connects, watches, applies, and after a
    /// lost connection waits (50 ms, doubling to 2 s) and resumes.
    public func run() async {
        var wait = 0.05
        while !Task.isCancelled {
            state = .connecting
            do {
                let c = try await AsyncTabulaConnection.connect(
                    endpoint, maxLine: LiveList.mostLineBytes, backlog: AsyncTabulaConnection.mostBacklog)
                connection = c
                connections += 1
                wait = 0.05
                await follow(c)
                c.close()
                connection = nil
                if case .stopped = state { return }
                feed.lost()
                state = .offline(c.endReason ?? "the server closed the connection")
            } catch {
                state = .offline("\(error)")
            }
            try? await Task.sleep(nanoseconds: UInt64(wait * 1e9))
            wait = min(wait * 2, 2)
        }
        connection?.close()
    }

    /// Sends `request` on a connection of its own; with `ifRevOf`, only if that row's entry
    /// has not changed since the revision shown (`IF REV`).
    public func write(_ request: String, ifRevOf entry: String? = nil) async throws -> ServerReply {
        let line = entry.flatMap { replica.entry($0) }.map { "\(request) IF REV \($0.rev)" } ?? request
        let endpoint = self.endpoint
        return try await withCheckedThrowingContinuation { k in
            Thread.detachNewThread {
                do {
                    let c = try TabulaConnection(endpoint)
                    k.resume(returning: try c.request(line))
                } catch {
                    k.resume(throwing: error)
                }
            }
        }
    }

    private func follow(_ c: AsyncTabulaConnection) async {
        for await line in c.lines {
            c.took(line)
            if case .stopped = state { return }
            // The greeting comes before FORMAT json takes effect: a text line.
            if let push = WireDecoder.textPush(line) {
                take(push, on: c)
                continue
            }
            guard let v = JSONParser.parse(line) else { continue }
            if let push = WireDecoder.jsonPush(v) {
                take(push, on: c)
            } else if let message = v["message"]?.stringValue {
                takeReply(ok: v["ok"] == .bool(true), message: message)
            }
        }
    }

    private func take(_ push: Push, on c: AsyncTabulaConnection) {
        if case .hello(_, _, _, let id) = push {
            for request in feed.connected(historyID: id) { c.send(request) }
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

    private func takeReply(ok: Bool, message: String) {
        if feed.takeReply(ok: ok, message: message) == false { state = .offline(message) } else { showPhase() }
    }

    private func showPhase() {
        switch feed.phase {
        case .idle: break
        case .snapshot: state = .snapshot
        case .resuming: state = .resuming
        case .live: state = .live(rev: feed.replica.rev)
        case .tooLarge(let why): state = .stopped(why)
        }
    }
}
