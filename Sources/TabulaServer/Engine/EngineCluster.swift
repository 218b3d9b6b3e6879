import Foundation
import TabulaModel
import TabulaProtocol
import TabulaStorage

/// What a node of a shared store must reload before it answers from its state again.
enum PendingReload {
    /// A commit failed in a way that may leave the model ahead of the store (the connection
    /// broke): reload, then publish what the store holds after `after`, the last revision the
    /// node's watchers were sent.
    case continuing(after: UInt64)
    /// The store's history no longer continues the node's: reload; the clients were dropped.
    case replacing
}

/// How a turn starts: what other nodes committed meanwhile, and what it must refuse.
struct TurnStart {
    var caught: [StoredChange] = []
    var failing: Failing?
    /// The turn holds the shared store's head (until its commit).
    var began = false
    /// The turn only catches up (its requests went back to `carried`).
    var deferred = false
}

/// A node of a cluster (a shared store, `StateStore.isShared`): each turn that writes locks
/// the store's head and first applies what the other nodes committed; a follow poke
/// (`ClusterFollower`) applies it between writes. Either way the changes are published to
/// this node's watchers exactly as its own.
extension Engine {
    /// Changes applied per follow turn; more come in the next.
    static let followPage = 10_000

    static let reloadMessage =
        "this node lost PostgreSQL in the middle of a commit and must reload its state before it answers; it does so as soon as PostgreSQL is back: try again shortly, or ask another node"

    /// Before a turn. Nil when the turn is given up (the node's history was replaced): the
    /// batch then waits for the next turn.
    func beginTurn(_ batch: [EngineInput]) -> TurnStart? {
        if pendingReload != nil && !reload() {
            return TurnStart(failing: Failing(message: Engine.reloadMessage, everything: true))
        }
        guard store.isShared else { return TurnStart() }
        let writes = batch.contains(where: Engine.writes)
        // The model's revision, which only this thread changes: read under the lock all the
        // same (the model is reached only through a lease).
        let revision = state.reading(onEngine: true) { $0.model.revision }
        // A poke for a head this node already has (its own commit's notification, or one a
        // write turn caught up with) costs no round trip; a head behind the node is read.
        let follow =
            batch.contains { if case .follow = $0 { return true } else { return false } }
            && state.storeHead.load(ordering: .relaxed) != revision
        guard writes || follow else { return TurnStart() }
        do {
            // Far behind (back from a long cut-off): catch up a page a turn first, so that
            // the write turn, which reads under the lock all it missed, reads little.
            if writes && state.storeHead.load(ordering: .relaxed) > revision + UInt64(Engine.followPage) {
                let caught = try store.changes(after: revision, limit: Engine.followPage)
                noteReachable()
                carried += batch.filter { if case .follow = $0 { return false } else { return true } }
                return TurnStart(caught: caught, deferred: true)
            }
            if writes {
                let asked = Histogram.now()
                let caught = try store.beginWrite(after: revision)
                executor.stats.headLockSeconds.observe(since: asked)
                noteReachable()
                return TurnStart(caught: caught, began: true)
            }
            let caught = try store.changes(after: revision, limit: Engine.followPage)
            noteReachable()
            if !caught.isEmpty { noteStoredHistory() }
            if caught.count == Engine.followPage { submit([.follow]) }  // more to read
            return TurnStart(caught: caught)
        } catch let d as HistoryDiverged {
            historyDiverged(d)
            carried += batch.filter { if case .follow = $0 { return false } else { return true } }
            return nil
        } catch {
            if !followFailing {
                log.log(.error, "PostgreSQL unreachable: \(error)")
                state.storeRefusal.withLock { $0 = "PostgreSQL is unreachable: \(error)" }
            }
            followFailing = true
            return TurnStart(
                failing: writes
                    ? Failing(
                        message: "the change could not be saved (\(error)); nothing was changed, try again later",
                        everything: false) : nil)
        }
    }

    /// What reached the inbox while the head's lock was awaited, for the turn that now holds
    /// it: plain groups, up to the turn's bound; anything that needs a turn of its own (or
    /// comes past the bound) waits for the next.
    func lateArrivals(after batch: [EngineInput]) -> [EngineInput] {
        var cost = batch.reduce(0) { n, input in
            if case .group(_, let units, _) = input { return n + min(units.count, Engine.unitsPerGroup) }
            return n
        }
        var joining: [EngineInput] = []
        for input in inbox.take() {
            switch input {
            case .group(_, let units, _)
            where cost < Engine.unitsPerTurn
                && !(units.first.map { Engine.runsOnCopy($0) || Engine.isReplay($0) } ?? false):
                cost += min(units.count, Engine.unitsPerGroup)
                joining.append(input)
            case .follow:
                break  // this turn catches up
            default:
                carried.append(input)
            }
        }
        return joining
    }

    private func noteReachable() {
        if followFailing {
            log.log(.info, "PostgreSQL reachable again")
            state.storeRefusal.withLock { $0 = nil }
        }
        followFailing = false
    }

    /// Whether a group holds a write among the requests a turn would run of it.
    static func writes(_ input: EngineInput) -> Bool {
        guard case .group(_, let units, _) = input else { return false }
        return units.prefix(unitsPerGroup).contains {
            if case .request(let r) = $0.unit { return r.command.isWrite }
            return false
        }
    }

    /// Applies what other nodes committed (write lock held); returns their events.
    func applyStored(_ caught: [StoredChange], _ lease: ModelLease) -> [Event] {
        guard let first = caught.first, let last = caught.last else { return [] }
        guard first.event.rev == lease.model.revision + 1 else {
            log.log(
                .error,
                "changes from revision \(first.event.rev) do not follow revision \(lease.model.revision); not applied")
            return []
        }
        lease.changing.apply(caught.flatMap(\.mutations), revision: last.event.rev)
        lease.changing.noteChanges(caught.map(\.event))
        return caught.map(\.event)
    }

    /// A commit to the shared store failed: the model may be ahead of the store. Reload it
    /// (publishing what others committed since the turn began), or, while the store is
    /// unreachable, refuse everything that reads the state until it is back.
    func rollBackShared(_ batch: [EngineInput], error: Error, turnStart: UInt64) -> [GroupAnswer] {
        if case .continuing(let r)? = pendingReload, r < turnStart {
        } else {
            pendingReload = .continuing(after: turnStart)
        }
        // The store told what became of the commit (it was not saved), or could not in time.
        var failing = Failing(
            message: "the change was not saved (\(error)); nothing changed, try again", everything: false)
        if let unknown = error as? CommitOutcomeUnknown {
            failing = Failing(
                message:
                    "\(unknown); the change may or may not be saved: read it back (SHOW or LS it, or SYNC to a later revision) before you try again, never just retry",
                everything: false, code: .inDoubt)
        }
        // The reload replaces the model; until it does, reads wait on the engine (refused while
        // PostgreSQL cannot be read), not on the copy held for the turn.
        state.writing { _ in state.dropCommittedNow() }
        let reloaded = reload()
        return state.writing { lease in
            state.uncommitted = !reloaded
            // Writes get the commit's answer; while the node cannot reload, everything else is
            // refused too (it must not show what it cannot confirm).
            if !reloaded && failing.code == .storage {
                failing = Failing(message: Engine.reloadMessage, everything: true)
            }
            if !reloaded && failing.code == .inDoubt {
                failing.everything = true
                failing.others = TabulaError(.storage, Engine.reloadMessage)
            }
            return rerun(batch, lease, failing: failing)
        }
    }

    /// Reloads the model from the shared store as `pendingReload` asks; false while the
    /// store cannot be read.
    @discardableResult
    func reload() -> Bool {
        guard let pending = pendingReload else { return true }
        do {
            guard let snap = try store.load() else { throw StorageError("the database holds no Tabula state any more") }
            var missed: [Event?] = []
            if case .continuing(let r) = pending {
                if snap.revision < r {
                    throw HistoryDiverged(
                        "the store's history is at revision \(snap.revision), behind the \(r) this node's clients were sent"
                    )
                }
                if snap.revision > r {
                    missed = try store.changes(after: r, limit: Int(snap.revision - r)).map { Optional($0.event) }
                }
            }
            state.writing { lease in
                var reloaded = Model(snapshot: snap)
                reloaded.eventViews = state.eventViews  // the users' views, not stored
                lease.changing = reloaded
                lease.changing.recordsMutations = store.isDurable
                if case .replacing = pending {
                    state.history = ChangeHistory(
                        capacity: state.history.capacity, byteCapacity: state.history.byteCapacity, after: snap.revision
                    )
                    state.publishedRevision.store(snap.revision, ordering: .releasing)
                }
                state.uncommitted = false
                state.publish(&missed, stats: executor.stats)
            }
            pendingReload = nil
            noteStoredHistory()
            log.log(.info, "reloaded the state from the \(store.kind) store at revision \(snap.revision)")
            return true
        } catch let d as HistoryDiverged {
            historyDiverged(d)
            return reload()
        } catch {
            if !followFailing { log.log(.error, "cannot reload from the \(store.kind) store yet: \(error)") }
            followFailing = true
            return false
        }
    }

    /// The store's history no longer continues this node's: every client is dropped with a
    /// `* BYE` saying so (never a split history), and the state is reloaded.
    func historyDiverged(_ d: HistoryDiverged) {
        log.log(.error, "\(d); dropping every client and reloading")
        for loop in state.loops {
            loop.post([
                .dropAll(
                    .historyChanged(
                        "the history changed: \(d.description); reconnect to go on from the store's history"))
            ])
        }
        pendingReload = .replacing
        state.writing { _ in
            state.dropCommittedNow()
            state.uncommitted = true
        }
    }
}
