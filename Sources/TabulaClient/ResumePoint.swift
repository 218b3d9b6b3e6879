import TabulaProtocol

/// The revision from which a connection's watches resume after a reconnect, so that no
/// event is lost: the highest revision seen, except while a `WATCH … FROM` replay is
/// unfinished. The WATCH reply's `at rev N` is the head, but the replayed events before N
/// are still to come, so until the last of them the resume point is the last one received
/// (or the FROM, before the first). Replays follow one another in order, and the server
/// holds live events back until a replay is done (Protocol.md, WATCH).
public struct ResumePoint: Sendable, Equatable {
    /// The highest revision of an event or finished WATCH seen.
    public private(set) var seen: UInt64 = 0
    /// Replays still arriving, oldest first: events left, where it ends, the last revision
    /// it delivered (its FROM before the first).
    private var replays: [Replay] = []

    struct Replay: Sendable, Equatable {
        var left: Int
        let end: UInt64
        var cursor: UInt64
        /// It went on as a snapshot (`* SNAPSHOT`): its events until the `SYNCED` are held by
        /// the rows, and the point stays at the cursor until then.
        var overtaken = false
    }

    public init() {}

    /// Resume from here.
    public var revision: UInt64 { replays.reduce(seen) { min($0, $1.cursor) } }

    /// A WATCH reply; `from` is the FROM its request gave, if any.
    public mutating func watched(_ ack: WatchAck, from: UInt64?) {
        guard let n = ack.replaying, n > 0 else {
            if replays.isEmpty { seen = max(seen, ack.rev) }
            return
        }
        replays.append(Replay(left: n, end: ack.rev, cursor: from ?? 0))
    }

    /// An event pushed: the running replay's, if one is running.
    public mutating func event(_ rev: UInt64) {
        seen = max(seen, rev)
        guard !replays.isEmpty, !replays[0].overtaken else { return }
        replays[0].cursor = rev
        replays[0].left -= 1
        if replays[0].left == 0 { seen = max(seen, replays.removeFirst().end) }
    }

    /// A replay's or snapshot's `* SYNCED rev`: it follows the replay's last event (which
    /// finished it here), so it moves the point on only when no later replay is running.
    public mutating func synced(_ rev: UInt64) {
        if replays.first?.overtaken == true { replays.removeFirst() }
        if replays.isEmpty { seen = max(seen, rev) }
    }

    /// The running replay went on as a snapshot (`* SNAPSHOT`): it ends at the snapshot's
    /// `SYNCED`, and until then the point stays where the replay stopped.
    public mutating func overtaken() {
        if !replays.isEmpty { replays[0].overtaken = true }
    }

    /// Continues from `revision` (a new connection carrying on an old one's watches).
    public mutating func resume(from revision: UInt64) { seen = max(seen, revision) }
}
