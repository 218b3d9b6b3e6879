import Foundation
import Glibc
import Synchronization
import TabulaAccess
import TabulaModel
import TabulaProtocol

/// The state every thread shares: the model and the change history behind a reader-writer
/// lock (many readers, one writer), and the watch hub behind its own lock.
///
/// Reads run on whichever I/O thread received them, in parallel. Writes take the write lock
/// for as long as applying them takes. Lock order: state, then hub, then a loop's inbox.
/// The properties guarded by `lock` are `@exclusivity(unchecked)`: the lock is what makes
/// their accesses exclusive, and a run-time check on each read would cost every request.
final class SharedState: @unchecked Sendable {
    private let lock = SpinRWLock()
    /// Guarded by `lock`, reached only through the lease its holds lend (`ModelLease`). The
    /// model as it stands (the engine's turn in it).
    private let modelStorage: UnsafeMutablePointer<Model>

    /// Guarded by `lock`. Recent events for `WATCH … FROM`.
    @exclusivity(unchecked) var history: ChangeHistory
    /// Guarded by `lock`. True while the engine has applied changes that are not yet
    /// committed: the loops then read the model as it was committed (what `reading` lends them), or, when
    /// no such copy is held (a node that must reload first), send their reads to the engine.
    @exclusivity(unchecked) var uncommitted = false
    /// Guarded by `lock`. The model as last committed, while `holdsCommitted`: kept by the
    /// engine when a turn begins to change the model, so that readers go on from it while
    /// the commit is under way, and a refused commit is undone by putting it back.
    private let committedStorage: UnsafeMutablePointer<Model>
    @exclusivity(unchecked) private(set) var holdsCommitted = false
    /// Guarded by `lock`. True while the engine runs a write on a copy of the model: the
    /// loops then send writes to the engine (reads go on), so the model stays as copied.
    @exclusivity(unchecked) var writesOnEngine = false
    /// Guarded by `lock`. Random numbers for random items.
    @exclusivity(unchecked) var rng = SplitMix64(seed: UInt64(UInt(bitPattern: time(nil))) &* 0x9E37_79B9)
    /// Who watches what.
    let hub = Locked(WatchHub())
    /// Guarded by `lock`: what this hold of the write lock publishes, and the tickets that
    /// order the holds' publications (`Publication`).
    @exclusivity(unchecked) var publication = Publication()
    @exclusivity(unchecked) var publicationsIssued: UInt64 = 0
    /// Owned by the post whose ticket is current (`post`): its messages by loop, kept from
    /// post to post with their storage.
    @exclusivity(unchecked) var outbox: [[LoopMessage]] = []
    let publicationsPosted = Atomic<UInt64>(0)
    /// The I/O loops, to deliver events to.
    @exclusivity(unchecked) var loops: [LoopHandle] = []
    /// The revision of the last published (committed) change: what clients may know of.
    let publishedRevision = Atomic<UInt64>(0)
    /// The revision through which every event has been posted to the loops' inboxes (or
    /// handed back to the loop whose run made it, which queues them before it reads this
    /// again: `OwnLoopEvents`): a loop that reads it, then drains its inbox, has queued every
    /// event through it (`PROGRESS`).
    let postedRevision = Atomic<UInt64>(0)
    /// The oldest revision in the store's durable history (0: none), kept by the engine so
    /// that STATS can report it without touching the store from an I/O thread.
    let storedHistoryOldest = Atomic<UInt64>(0)
    /// A shared store's head revision, as the follower last saw it (for STATS' lag).
    let storeHead = Atomic<UInt64>(0)
    /// Why the store refuses writes, since its last commit failed (nil: it took the last
    /// one): what `/readyz` reports.
    let storeRefusal = Locked<String?>(nil)
    /// Set when the server starts stopping: waiting SYNCs are answered at once.
    let stopping = Atomic<Bool>(false)

    /// The snapshots being sent (`WATCH … SNAPSHOT`), against their bound. Set before any
    /// thread starts.
    @exclusivity(unchecked) var snapshots = SnapshotCount(most: 64)

    /// The id of the history this server serves (the store's), in every greeting.
    let historyID: String
    /// The revision at which each user's grants last changed by a reload of the users file:
    /// a copy its watches made before counts in the old grants' view, so it cannot be
    /// resumed from a revision before that (`WatchRequests`).
    let grantsChanged = Locked<[String: UInt64]>([:])
    /// Guarded by `lock` (set under the write lock). The views the users' grants make
    /// (`EventViews`), the one owner of them: a model put in place of another (a turn on a
    /// copy, a refused commit's return) takes them from here.
    var eventViews = EventViews()

    init(model: Model, historyCapacity: Int, historyBytes: Int = ChangeHistory.defaultByteCapacity, historyID: String) {
        self.historyID = historyID
        modelStorage = .allocate(capacity: 1)
        modelStorage.initialize(to: model)
        committedStorage = .allocate(capacity: 1)
        committedStorage.initialize(to: Model())
        self.history = ChangeHistory(capacity: historyCapacity, byteCapacity: historyBytes, after: model.revision)
        publishedRevision.store(model.revision, ordering: .relaxed)
        postedRevision.store(model.revision, ordering: .relaxed)
    }

    deinit {
        modelStorage.deinitialize(count: 1)
        modelStorage.deallocate()
        committedStorage.deinitialize(count: 1)
        committedStorage.deallocate()
    }

    /// Keeps the model as it stands as the committed one, before the engine changes it (call
    /// holding the write lock). The first change to each part of the model then copies that
    /// part: a turn costs a copy of the chunks it touches, never of the whole model.
    func keepCommitted() {
        committedStorage.pointee = modelStorage.pointee
        holdsCommitted = true
    }

    /// Keeps `old`, the model a copy was swapped in for, as the committed one (write lock held).
    func keepCommitted(_ old: inout Model) {
        swap(&committedStorage.pointee, &old)
        holdsCommitted = true
    }

    /// The turn is committed, or changed nothing: the model is the committed one again. Returns
    /// the copy no longer held, for the caller to free once the lock is released (write lock
    /// held).
    func dropCommitted() -> Model {
        holdsCommitted = false
        var old = Model.empty
        swap(&committedStorage.pointee, &old)
        return old
    }

    /// `dropCommitted`, freeing the copy here (where it shares all it holds with the model,
    /// or on a rare path).
    func dropCommittedNow() { _ = dropCommitted() }

    /// The turn's commit was refused: the model goes back to the one committed before it.
    /// Returns the refused model, to free once the lock is released (write lock held).
    func restoreCommitted() -> Model {
        precondition(holdsCommitted, "nothing to restore")
        swap(&modelStorage.pointee, &committedStorage.pointee)
        modelStorage.pointee.eventViews = eventViews  // a reload meanwhile changed them
        return dropCommitted()
    }

    /// Runs `body` holding the read lock, lending it the model as a reader sees it: on the
    /// engine as its turn has it, elsewhere as committed.
    func reading<R>(onEngine: Bool = false, _ body: (ModelLease) throws -> R) rethrows -> R {
        lock.lockRead()
        defer { lock.unlockRead() }
        let readable = onEngine || !holdsCommitted ? modelStorage : committedStorage
        return try body(ModelLease(readable: readable, writable: nil, lock: lock))
    }

    /// Runs `body` holding the write lock, lending it the model to change; then, with the
    /// lock released, posts what it published (`Publication`) before returning.
    func writing<R>(_ body: (ModelLease) throws -> R) rethrows -> R {
        var own = OwnLoopEvents(loop: nil)
        return try writing(own: &own, body)
    }

    /// `writing`, on the I/O loop `own.loop` names: the events it publishes for that loop's
    /// own watchers are handed back in `own` for the loop to queue itself at once, rather
    /// than through its inbox, when its inbox held nothing as they were posted (see
    /// `OwnLoopEvents`).
    func writing<R>(own: inout OwnLoopEvents, _ body: (ModelLease) throws -> R) rethrows -> R {
        lock.lockWrite()
        own.inboxed = false
        defer { releaseWrite(&own) }
        return try body(ModelLease(readable: modelStorage, writable: modelStorage, lock: lock))
    }

    private func releaseWrite(_ own: inout OwnLoopEvents) {
        guard !publication.isEmpty else { return lock.unlockWrite() }
        let p = publication
        publication = Publication()
        let ticket = publicationsIssued
        publicationsIssued += 1
        lock.unlockWrite()
        post(p, ticket: ticket, own: &own)
    }

    /// Queues `messages` (by loop) behind this hold's events: posted with its publication,
    /// once the lock is released. Call holding the write lock.
    func postAfterRelease(_ messages: [[LoopMessage]]) {
        publication.steps.append(.messages(messages))
    }

    /// Makes committed events visible: the revision is published at once, each event is
    /// queued for its watchers (posted when the lock is released: `Publication`), and moved
    /// into the history. Call holding the write lock. Leaves in
    /// `events` what fell out of the history, for the caller to free after unlocking.
    /// `origins[i]`, when given, is the connection whose request made event i: it is left
    /// out, having been given the event inline (`ownEvent`).
    func publish(_ events: inout [Event?], origins: [ConnectionID?] = [], stats: ServerStats) {
        publish(&events, range: events.indices, origins: origins, stats: stats)
    }

    /// `publish` of `events[range]` only (`origins` indexed like `events`).
    func publish(_ events: inout [Event?], range: Range<Int>, origins: [ConnectionID?], stats: ServerStats) {
        guard !range.isEmpty, let last = events[range.upperBound - 1]?.rev else { return }
        publishedRevision.store(last, ordering: .releasing)
        publication.stats = stats
        publication.lastRevision = last
        queueEvents(events[range], origins: origins, into: &publication)
        for i in range { history.append(&events[i]) }
    }

    /// Event `e` as `c` itself is sent it, when one of its watches covers it: a connection's
    /// own events go in its reply stream just before the reply of the request that made
    /// them, so that they never overtake the replies to its earlier requests (and `publish`
    /// leaves it out of their audience). Nil when it does not watch the event's path. Only
    /// looked up here (under the write lock); encoded with the other answers, after it.
    func ownEvent(_ e: Event, for c: ConnectionID, stats: ServerStats) -> Answer? {
        guard
            let (f, channel, view) = hub.withLock({ h in
                h.format(of: c, for: e).map { ($0.format, $0.channel, h.view(of: c)) }
            })
        else { return nil }
        stats.add(stats.eventsDelivered, 1)
        return .event(view?.view(e) ?? e, channel: channel, format: f)
    }
}
