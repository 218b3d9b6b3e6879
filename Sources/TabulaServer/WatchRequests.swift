import TabulaModel
import TabulaProtocol

/// `WATCH`: registering a watch and replaying retained history, from memory or the store.
extension RequestExecutor {
    func watch(_ c: ConnectionID, prefix: String?, from: UInt64?, session: Session, onEngine: Bool) -> Execution {
        let p = ModelPath.join(ModelPath.segments(prefix ?? "/", cwd: prefix == nil ? "/" : session.viewer.cwd))
        if let top = ModelPath.segments(p, cwd: "/").first, !Model.roots.contains(top) {
            let hint = EditDistance.closest(to: top, in: Model.roots).map { "; did you mean /\($0)?" } ?? "; the top-level lists are /\(Model.roots.joined(separator: ", /"))"
            return Execution(Reply(error: TabulaError(.notFound, "nothing can change under \(p)\(hint)")))
        }
        let revision = state.model.revision
        if let from, from > revision {
            return Execution(Reply(error: TabulaError(.expired, "revision \(from) is newer than this server's history, which is at \(revision) (history id \(state.historyID)); the server started a new history or is another one, so nothing can be resumed: LS to resync, then WATCH without FROM")))
        }
        var replay: [Event] = []
        if let from, from < revision {
            let memOldest = state.history.oldest ?? revision + 1
            if from + 1 >= memOldest {
                replay = state.history.events(after: from)
            } else {
                // Older history is in the store, which only the engine reads (Dispatcher sends a
                // WATCH FROM there when the store keeps history); on a loop memory is all there is.
                switch onEngine ? storedHistory(after: from, memOldest: memOldest) : .failure(expired(from, oldest: memOldest)) {
                case .success(let events): replay = events
                case .failure(let e): return Execution(Reply(error: e))
                }
            }
            replay = replay.filter { ModelPath.isUnder($0.path, prefix: p) }
        }
        state.hub.withLock { $0.add(c, p, format: session.format) }
        var e = Execution(Reply(message: WatchAck(prefix: p, rev: revision, replaying: from == nil ? nil : replay.count).message))
        e.replay = replay
        return e
    }

    private func expired(_ rev: UInt64, oldest: UInt64) -> TabulaError {
        TabulaError(.expired, "revision \(rev) is older than the history kept; the oldest revision held is \(oldest), so FROM must be at least \(oldest - 1); LS to resync, then WATCH without FROM")
    }

    /// Events after `rev` from the store, then from memory (engine thread only).
    private func storedHistory(after rev: UInt64, memOldest: UInt64) -> Result<[Event], TabulaError> {
        do {
            let storeOldest = try store.oldestRevision()
            guard storeOldest > 0, rev + 1 >= storeOldest else {
                return .failure(expired(rev, oldest: storeOldest > 0 ? min(storeOldest, memOldest) : memOldest))
            }
            var out: [Event] = []
            var cursor = rev
            while cursor + 1 < memOldest {
                let page = try store.events(after: cursor, limit: 10_000).filter { $0.rev < memOldest }
                guard let last = page.last else { break }
                out += page
                cursor = last.rev
            }
            return .success(out + state.history.events(after: cursor))
        } catch {
            return .failure(TabulaError(.storage, "could not read the history: \(error)"))
        }
    }
}
