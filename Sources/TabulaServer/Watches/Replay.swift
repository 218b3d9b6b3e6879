import TabulaModel
import TabulaProtocol

/// What a `WATCH … FROM` leaves to do once its watch is registered: replay the retained
/// events under `prefix` with a revision in `(after, through]`. `through` is the newest
/// published revision when the watch was added; everything later reaches the connection live.
/// A class: every request's `Execution` carries an optional one, which must cost one word.
final class ReplayPlan: Sendable {
    let prefix: String
    let after: UInt64
    let through: UInt64
    /// The revision the WATCH reply names (`at rev N`).
    let rev: UInt64
    /// The request's tag, for the reply.
    let tag: String?
    /// Whether the WATCH added the watch (false when the connection already had it): a
    /// replay that fails before its reply takes back only a watch it added.
    let addedWatch: Bool
    /// The watcher's view, when it is not sent every event as it is (its user's grants, its
    /// FILTER: `WatcherView`): events outside it
    /// are neither counted nor sent.
    let view: WatcherView?
    /// Its reply is Redis's `subscribe` (see `Request.subscribeReply`).
    let subscribeReply: Bool
    /// `WATCH … SNAPSHOT` that replays no history: the rows to send instead.
    let snapshot: Snapshot?
    /// `FROM rev SNAPSHOT` that replays: should the history move past its cursor, it is
    /// answered with a snapshot instead, before the reply (`EventLoop.failReplay`) or after
    /// it, in the stream (`EventLoop.sendSnapshotInStream`).
    let snapshotAsked: Bool
    /// Its watcher is sent text and every event as it is: a page read from a store needs only
    /// each event's summary, not its JSON or context (`HistoryReader.events`, `payload`).
    let summariesSuffice: Bool
    /// A snapshot that goes on from an overtaken replay (`EventLoop.sendSnapshotInStream`):
    /// it has no reply, its `* SNAPSHOT` push having gone before.
    let inStream: Bool

    init(
        prefix: String, after: UInt64, through: UInt64, rev: UInt64, tag: String?, addedWatch: Bool,
        view: WatcherView? = nil, subscribeReply: Bool = false, snapshot: Snapshot? = nil, snapshotAsked: Bool = false,
        inStream: Bool = false, textFormat: Bool = false
    ) {
        self.inStream = inStream
        self.subscribeReply = subscribeReply
        self.snapshot = snapshot
        self.snapshotAsked = snapshotAsked
        self.prefix = prefix
        self.after = after
        self.through = through
        self.rev = rev
        self.tag = tag
        self.addedWatch = addedWatch
        self.view = view?.kept  // plain: counted and sent as it is, cheaply
        summariesSuffice = textFormat && self.view == nil
    }
}

/// A replay in progress: first counted (the reply says how many events follow), then sent a
/// page at a time. Each step costs at most one window of revisions, so the loop interleaves
/// it with everything else and sends only while the client keeps up.
struct Replay: Sendable {
    let plan: ReplayPlan
    private(set) var cursor: UInt64
    private(set) var acknowledged = false

    /// Revisions examined in one step under a deeper prefix; events counted in one step
    /// under a top-level list's path.
    static let window: UInt64 = 20_000
    /// Events sent in one step: at most this many, and no more once they hold about
    /// `pageBytes` (their paths and summaries counted), so a step's output stays small
    /// whatever the events hold.
    static let pageEvents = 1_000
    static let pageBytes = 64 * 1024
    /// Events of a replay's first page: each later page doubles it, up to `pageEvents`, and
    /// each waits until the client has read the last, so a replay nobody reads costs the
    /// reading of this many events, not a full page's (TCP's slow start, for a replay).
    static let firstPageEvents = 64

    /// Events the next page may hold.
    private var pageLimit = Replay.firstPageEvents

    init(_ plan: ReplayPlan) {
        self.plan = plan
        cursor = plan.after
    }

    enum Step: Equatable, Sendable {
        /// Counted part of the range; step again.
        case counting
        /// The count is complete: reply with it, then the events follow.
        case acknowledge(Int)
        /// A snapshot begins: reply, then its rows follow.
        case acknowledgeSnapshot
        /// The next events, oldest first.
        case events([Event])
        /// The snapshot's next rows, in order.
        case rows([Push])
        /// Everything was sent.
        case finished
        /// The history no longer holds what was to be replayed.
        case failed(HistoryGap)
    }

    private var counted = 0

    /// Where a step may read to: under a top-level list's own path, the whole range (the
    /// history is read by list, so a step costs the events it counts or sends, at most a
    /// window's or a page's, whatever a role's grants then keep of a page); under a deeper
    /// prefix, one window of revisions (its list's other entries are looked at too).
    private var stepEnd: UInt64 {
        ModelPath.isTopLevel(plan.prefix) ? plan.through : min(plan.through, cursor + Replay.window)
    }

    /// Where the snapshot goes on from (`LS … AFTER` it); nil before its first page.
    private var snapshotAfter: String?
    private var snapshotDone = false

    /// Does one bounded piece of the work.
    mutating func step(_ history: some RetainedHistory) -> Step {
        if let s = plan.snapshot { return step(s) }
        do {
            if !acknowledged {
                if plan.prefix == "/" && plan.view == nil {
                    // Every revision is one event: no need to look at them.
                    try history.check(after: cursor)
                    counted = Int(plan.through - plan.after)
                    cursor = plan.through
                } else if let g = plan.view {
                    let end = min(plan.through, cursor + Replay.window)
                    counted += try history.events(
                        after: cursor, through: end, under: plan.prefix, limit: .max, bytes: .max, payload: true
                    ).filter { g.receives($0) }.count
                    cursor = end
                } else {
                    let (n, upTo) = try history.count(
                        after: cursor, through: stepEnd, under: plan.prefix, limit: Int(Replay.window))
                    counted += n
                    cursor = upTo
                }
                guard cursor == plan.through else { return .counting }
                acknowledged = true
                cursor = plan.after
                return .acknowledge(counted)
            }
            guard cursor < plan.through else { return .finished }
            let end = stepEnd
            let page = try history.events(
                after: cursor, through: end, under: plan.prefix, limit: pageLimit,
                bytes: Replay.pageBytes * pageLimit / Replay.pageEvents, payload: !plan.summariesSuffice)
            pageLimit = min(pageLimit * 2, Replay.pageEvents)
            // A page may stop short of `end` (full): the next one starts after its last event.
            cursor = page.last?.rev ?? end
            // As live: a watcher is sent its own view of each event.
            if let g = plan.view { return .events(page.filter { g.receives($0) }.map { g.view($0) }) }
            return .events(page)
        } catch {
            return .failed(error)
        }
    }
}

extension Replay {
    /// A snapshot's step: its reply, then a page of at most `Snapshot.pageRows` rows at a
    /// time (an `LS` page of the copy the watch was added with), then `finished`.
    private mutating func step(_ s: Snapshot) -> Step {
        guard acknowledged else {
            acknowledged = true
            return .acknowledgeSnapshot
        }
        guard !snapshotDone else { return .finished }
        let page = s.page(after: snapshotAfter)
        snapshotAfter = page.next
        snapshotDone = page.next == nil
        return .rows(page.rows)
    }
}

/// The retained history a replay reads: what the server holds in memory, and the store's for
/// what memory no longer holds. Every call either covers its whole range or throws.
protocol RetainedHistory {
    /// Throws unless every event after `after` is still retained.
    func check(after: UInt64) throws(HistoryGap)
    /// How many events in `(after, through]` lie under `prefix`, at most `limit` counted:
    /// the count, and the revision it counted through (see `HistoryReader.count`).
    func count(after: UInt64, through: UInt64, under prefix: String, limit: Int) throws(HistoryGap) -> (
        count: Int, through: UInt64
    )
    /// Events in `(after, through]` under `prefix`, oldest first, until `limit` of them or
    /// about `bytes` (see `Event.size`); without `payload`, a store may leave out what only a
    /// JSON or a restricted watcher is sent (`HistoryReader.events`).
    func events(after: UInt64, through: UInt64, under prefix: String, limit: Int, bytes: Int, payload: Bool)
        throws(HistoryGap) -> [Event]
}

extension Event {
    /// What a page and the history's byte bound count of an event's size: its path and
    /// summary (its JSON is about as big), and its places in the users' views.
    var size: Int {
        path.utf8.count + summaryLine.byteCount + 32
            + (inViews?.entries.reduce(0) { $0 + $1.view.utf8.count + 48 } ?? 0)
    }
}

/// The retained history has no longer what was asked for.
struct HistoryGap: Error, Equatable, Sendable {
    /// The oldest revision retained now (0: unknown, the store could not be read).
    let oldest: UInt64
    /// Why, when the store could not be read.
    var failure: String?
    /// Not a gap: memory does not hold the range, and the store must be asked (off the loop).
    var elsewhere = false

    /// What `MemoryHistory` throws for a range it does not hold.
    static let elsewhere = HistoryGap(oldest: 0, elsewhere: true)
}
