import Foundation
import Synchronization
import TabulaModel
import TabulaProtocol

/// What `WATCH prefix SNAPSHOT` sends before the live events: the rows `LS prefix` shows,
/// every page of them, read from a copy of the model taken when the watch was added (at the
/// revision its reply names). The copy shares the model's storage until the next write
/// touches it, so taking it costs no copying under the lock; reading it, a page at a time
/// on the watcher's loop, holds no lock at all.
struct Snapshot: Sendable {
    let model: Model
    /// The list listed, absolute.
    let path: String
    /// The watcher's view: its grants, as its own `LS` would see, and no filter.
    let viewer: Viewer
    /// Its place among the snapshots being sent, given back when the snapshot is dropped.
    let held: SnapshotCount.Held

    /// Rows in one step: an `LS` page of at most this many entries.
    static let pageRows = 1_000

    /// The next page after `after` (nil: the first): its rows and where the next starts.
    func page(after: String?) -> (rows: [Push], next: String?) {
        var v = viewer
        guard let reply = model.read(.ls(path: path, limit: Snapshot.pageRows, after: after), viewer: &v),
            reply.error == nil
        else { return ([], nil) }
        let rows = reply.rows.map { Push.row(path: $0.path?.string, $0) }
        // `LS` says where its next page starts: `…; more: LS /items LIMIT 1000 AFTER 123`.
        guard let at = reply.message.range(of: " AFTER ", options: .backwards) else { return (rows, nil) }
        return (rows, String(reply.message[at.upperBound...]))
    }

    /// Why `path` cannot be snapshot for `viewer` (not a list it may list), or nil.
    static func refusal(of path: String, in model: Model, viewer: Viewer) -> TabulaError? {
        var v = viewer
        guard let reply = model.read(.ls(path: path, limit: 1, after: nil), viewer: &v) else {
            return TabulaError(.invalid, "\(path) cannot be listed")
        }
        if let e = reply.error { return e }
        guard case .success(let t) = model.resolve(path, viewer: viewer), model.isList(t) else {
            return TabulaError(
                .invalid,
                "SNAPSHOT sends the rows of a list, and \(path) is not one; WATCH its list (WATCH \(ModelPath.parent(path)) SNAPSHOT)"
            )
        }
        return nil
    }
}

/// How many snapshots are being sent, at most `most` in all and `perOwner` to one owner (a
/// user, or an address where there are no users), and the revisions their copies pin: a
/// snapshot's copy of the model keeps alive what later writes replace until its client has
/// read it all, so one that never reads holds memory; this bounds how many can, and no one
/// owner takes every place. (A holder that does not read gives its place back within
/// seconds while places are short or its copy is one old version too many:
/// `EventLoop.shedUnreadSnapshots`.)
final class SnapshotCount: Sendable {
    let most: Int
    let perOwner: Int
    /// Old versions of the model (revisions before the newest) that snapshots not being read
    /// may keep alive: past them, the unread snapshots pinning older ones are closed.
    static let mostOldVersions = 2
    private let taken = Locked(Places())

    private struct Places {
        var total = 0
        var byOwner: [String: Int] = [:]
        var byRevision: [UInt64: Int] = [:]
    }

    init(most: Int) {
        self.most = max(1, most)
        perOwner = max(1, most / 4)
    }

    /// A place for `owner` (nil: bounded by the total alone) for a copy of the model at
    /// `revision`, or nil when `most` are being sent, or `perOwner` to it.
    func take(owner: String?, revision: UInt64) -> Held? {
        let ok = taken.withLock { t -> Bool in
            guard t.total < most else { return false }
            if let owner {
                guard t.byOwner[owner, default: 0] < perOwner else { return false }
                t.byOwner[owner, default: 0] += 1
            }
            t.total += 1
            t.byRevision[revision, default: 0] += 1
            return true
        }
        return ok ? Held(self, owner: owner, revision: revision) : nil
    }

    /// How many are being sent, to everyone.
    var inUse: Int { taken.withLock { $0.total } }

    /// How many are being sent to `owner`.
    func heldBy(_ owner: String?) -> Int { owner.map { o in taken.withLock { $0.byOwner[o] ?? 0 } } ?? 0 }

    /// The distinct revisions before `head` that snapshots' copies pin, newest first.
    func oldRevisions(before head: UInt64) -> [UInt64] {
        taken.withLock { $0.byRevision.keys.filter { $0 < head } }.sorted(by: >)
    }

    /// Whether a copy at `revision` is an old version past the `mostOldVersions` newest that
    /// are pinned (with the model at `head`).
    func pinsTooOld(_ revision: UInt64, head: UInt64) -> Bool {
        revision < head && !oldRevisions(before: head).prefix(SnapshotCount.mostOldVersions).contains(revision)
    }

    fileprivate func give(_ owner: String?, revision: UInt64) {
        taken.withLock { t in
            t.total -= 1
            let r = t.byRevision[revision, default: 1] - 1
            t.byRevision[revision] = r > 0 ? r : nil
            guard let owner else { return }
            let n = t.byOwner[owner, default: 1] - 1
            t.byOwner[owner] = n > 0 ? n : nil
        }
    }

    /// One place, given back when the snapshot holding it goes (finished, failed, or its
    /// connection closed).
    final class Held: Sendable {
        private let count: SnapshotCount
        private let owner: String?
        let revision: UInt64
        fileprivate init(_ c: SnapshotCount, owner: String?, revision: UInt64) {
            count = c
            self.owner = owner
            self.revision = revision
        }
        deinit { count.give(owner, revision: revision) }
    }
}
