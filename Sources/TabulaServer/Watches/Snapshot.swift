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
/// user, or an address where there are no users): a snapshot's copy of the model keeps alive
/// what later writes replace until its client has read it all, so one that never reads holds
/// memory; this bounds how many can, and no one owner takes every place. (A holder that does
/// not read gives its place back within seconds: `EventLoop.shedUnreadSnapshots`.)
final class SnapshotCount: Sendable {
    let most: Int
    let perOwner: Int
    private let taken = Mutex<(total: Int, byOwner: [String: Int])>((0, [:]))

    init(most: Int) {
        self.most = max(1, most)
        perOwner = max(1, most / 4)
    }

    /// A place for `owner` (nil: bounded by the total alone), or nil when `most` are being
    /// sent, or `perOwner` to it.
    func take(owner: String?) -> Held? {
        let ok = taken.withLock { t -> Bool in
            guard t.total < most else { return false }
            if let owner {
                guard t.byOwner[owner, default: 0] < perOwner else { return false }
                t.byOwner[owner, default: 0] += 1
            }
            t.total += 1
            return true
        }
        return ok ? Held(self, owner: owner) : nil
    }

    /// How many are being sent, to everyone.
    var inUse: Int { taken.withLock { $0.total } }

    /// How many are being sent to `owner`.
    func heldBy(_ owner: String?) -> Int { owner.map { o in taken.withLock { $0.byOwner[o] ?? 0 } } ?? 0 }

    fileprivate func give(_ owner: String?) {
        taken.withLock { t in
            t.total -= 1
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
        fileprivate init(_ c: SnapshotCount, owner: String?) {
            count = c
            self.owner = owner
        }
        deinit { count.give(owner) }
    }
}
