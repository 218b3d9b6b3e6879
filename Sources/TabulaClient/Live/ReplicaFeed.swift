import TabulaProtocol

/// What keeps a `ListReplica` from a connection's lines: which watch to ask for on a new
/// connection (a snapshot for a history it has not seen, else a resume from its one number),
/// what each push and watch reply does to the copy, and when to ask for a snapshot again (an
/// event that does not fit). Pure: it says what to send and what changed, and the caller's
/// connection sends it; `LiveList` and the terminal live view both keep their lists with it.
public struct ReplicaFeed: Sendable {
    /// Where the copy stands.
    public enum Phase: Sendable, Equatable {
        /// No watch yet (or the connection was lost).
        case idle
        /// A snapshot was asked for or is being received.
        case snapshot
        /// A replay of what was missed is being received.
        case resuming
        /// Every change through the replica's `rev` is held.
        case live
        /// The list passed `mostRows`: nothing more is taken (why).
        case tooLarge(String)
    }

    /// The most rows a copy holds, an unfinished snapshot's included: a server that sends a
    /// list larger than this (or rows without end) stops the copy, at a bounded size, rather
    /// than grow it without bound.
    public static let mostRows = 100_000

    /// What taking a line did.
    public enum Step: Sendable, Equatable {
        case none
        /// The copy changed (a snapshot's end is a `reset`).
        case changed(ListChange)
        /// Send these requests (the event did not fit: a snapshot instead).
        case send([String])
        /// The list passed `mostRows` (why): stop watching it; nothing more is taken.
        case stop(String)
    }

    public private(set) var replica: ListReplica
    public private(set) var phase: Phase = .idle
    /// Counts, for the curious and for tests.
    public private(set) var snapshots = 0
    public private(set) var resumes = 0
    private var historyID: String?
    /// A snapshot was asked for; events until its reply belong to the watch before it.
    private var awaitingSnapshot = false
    /// Rows of the snapshot being received, section headers included.
    private var snapshotRows = 0

    /// The most rows this copy holds (`mostRows` unless told fewer).
    public let rowBound: Int
    /// The FILTER the copy is kept under (`favorites`: `/items` as its favourites), set on
    /// every connection before the watch: a copy resumes only under the FILTER it was made with.
    public let filter: ItemFilter

    public init(path: String, mostRows: Int = ReplicaFeed.mostRows, filter: ItemFilter = .all) {
        replica = ListReplica(path: path)
        rowBound = min(mostRows, ReplicaFeed.mostRows)
        self.filter = filter
    }

    /// The requests that start the watch on a connection whose greeting named history `id`:
    /// a snapshot when the history is another than the one the copy came from (a restarted
    /// memory server, another database), else a resume that falls back to a snapshot.
    /// `PROGRESS` keeps the one number moving while the list is quiet and others change.
    public mutating func connected(historyID id: String) -> [String] {
        // A snapshot cut short is taken again whole: its rows so far hold no revision to
        // resume from.
        let fresh = historyID != id || replica.receivingSnapshot
        historyID = id
        awaitingSnapshot = fresh
        phase = .idle
        let path = Quoting.quote(replica.path)
        return [
            "FORMAT json",
            filter == .favorites ? "FILTER favorites" : nil,
            fresh ? "WATCH \(path) SNAPSHOT PROGRESS" : "WATCH \(path) FROM \(replica.rev) SNAPSHOT PROGRESS",
        ].compactMap { $0 }
    }

    /// The connection was lost: nothing arrives until the next `connected`.
    public mutating func lost() { phase = .idle }

    /// A push from the connection.
    public mutating func take(_ push: Push) -> Step {
        if case .tooLarge = phase { return .none }
        let step = taken(push)
        // A snapshot's rows are counted as they come (section headers too: a server may send
        // those without end); an event adds one entry at most, so the copy is counted then.
        // (A row is counted in O(1); the copy, O(sections), only after an event.)
        switch push {
        case .row:
            snapshotRows += 1
            if snapshotRows <= rowBound { return step }
        case .event: if replica.rowCount + replica.sections.count <= rowBound { return step }
        default: return step
        }
        let why =
            "\(replica.path) has more than \(rowBound) rows, more than a live copy keeps; LS \(replica.path) LIMIT 1000 pages it"
        phase = .tooLarge(why)
        replica = ListReplica(path: replica.path)  // what it held goes
        return .stop(why)
    }

    private mutating func taken(_ push: Push) -> Step {
        switch push {
        case .row(let p, let row):
            guard phase == .snapshot, !awaitingSnapshot else { return .none }
            replica.takeRow(path: p, value: row.json)
        case .synced(let rev):
            guard phase != .idle, !awaitingSnapshot else { return .none }
            let wasSnapshot = replica.receivingSnapshot
            replica.synced(rev)
            phase = .live
            if wasSnapshot { return .changed(ListChange(rev: replica.rev, reset: true)) }
        case .snapshot:
            // The replay went on as a snapshot: its rows replace the copy. (Given to the feed
            // whose replay runs, whatever spelling of its path the feed was made with: a
            // connection with several feeds routes it by its prefix, as `tabula live` does.)
            guard phase == .resuming, !awaitingSnapshot else { return .none }
            beginSnapshot()
        case .event(let e):
            // During a snapshot, an event is of a revision its rows hold (one in the stream
            // is preceded by the replaced watch's).
            guard !awaitingSnapshot, phase != .idle, phase != .snapshot else { return .none }
            switch replica.apply(e) {
            case .changed(let change): return .changed(change)
            case .needsSnapshot:
                awaitingSnapshot = true
                phase = .snapshot
                let path = Quoting.quote(replica.path)
                return .send(["UNWATCH \(path)", "WATCH \(path) SNAPSHOT PROGRESS"])
            case .gone: return .changed(ListChange(rev: e.rev, reset: true))
            case .unchanged: break
            }
        case .hello, .bye:
            break  // the caller connects (`connected`) and notices the end
        }
        return .none
    }

    /// A snapshot begins: its rows replace the copy.
    private mutating func beginSnapshot() {
        snapshotRows = 0
        replica.beginSnapshot()
        snapshots += 1
        phase = .snapshot
    }

    /// The reply to a request of the watch's (`WatchAck`'s message); nil when it is no watch's
    /// acknowledgement, else whether it was refused (`ok` false: the message says why).
    public mutating func takeReply(ok: Bool, message: String) -> Bool? {
        guard ok, let ack = WatchAck(message: message) else { return ok ? nil : false }
        if ack.snapshot {
            awaitingSnapshot = false
            beginSnapshot()
        } else if ack.replaying != nil {
            resumes += 1
            phase = .resuming
        }
        return true
    }
}
