import TabulaProtocol
import TabulaStorage

/// The history a replay reads when memory no longer holds its range: the store's, through
/// the `ReplayReader` thread's own read-only connection (opened on first use, and again
/// after a failure). Never used on an I/O loop: opening it and reading from it may block
/// (disk, PostgreSQL). Checks of what is retained are made after reading, so a range that
/// the store trimmed while it was read is reported as a gap, never returned short.
final class StoreHistory: RetainedHistory {
    private let state: SharedState
    private let store: StateStore
    private var reader: HistoryReader?

    init(state: SharedState, store: StateStore) {
        self.state = state
        self.store = store
    }

    func check(after: UInt64) throws(HistoryGap) {
        _ = try fromStore(after: after) { _ in 0 }
    }

    func count(after: UInt64, through: UInt64, under prefix: String, limit: Int) throws(HistoryGap) -> (
        count: Int, through: UInt64
    ) {
        try fromStore(after: after) { try $0.count(after: after, through: through, under: prefix, limit: limit) }
    }

    func events(after: UInt64, through: UInt64, under prefix: String, limit: Int, bytes: Int, payload: Bool)
        throws(HistoryGap) -> [Event]
    {
        try fromStore(after: after) { reader in
            var size = 0
            return try reader.events(after: after, through: through, under: prefix, limit: limit, payload: payload) {
                e in
                size += e.size
                return size < bytes
            }
        }
    }

    /// Reads from the store, then checks that it still holds every event after `after`.
    private func fromStore<R>(after: UInt64, _ read: (HistoryReader) throws -> R) throws(HistoryGap) -> R {
        let memoryOldest = state.reading { _ in state.history.oldest } ?? 0
        do {
            if reader == nil { reader = try store.openHistoryReader() }
            guard let reader else { throw HistoryGap(oldest: memoryOldest) }
            let result = try read(reader)
            let oldest = try reader.oldestRevision()
            guard oldest > 0, after + 1 >= oldest else { throw HistoryGap(oldest: oldest > 0 ? oldest : memoryOldest) }
            return result
        } catch let gap as HistoryGap {
            throw gap
        } catch {
            reader = nil  // opened anew next time
            throw HistoryGap(oldest: 0, failure: "\(error)")
        }
    }
}
