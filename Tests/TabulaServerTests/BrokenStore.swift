import Foundation
import Synchronization
import TabulaModel
import TabulaProtocol
import TabulaStorage

/// A real SQLite store that can be told to refuse commits and loads, as a store whose disk
/// filled and whose file then could not be read would; to refuse a commit that writes a text
/// longer than a bound, as a disk with room for small rows only would; and to hold commits
/// until let go, as a disk that hangs would.
final class BrokenStore: StateStore, Sendable {
    let inner: SQLiteStore
    let failCommits = Atomic<Bool>(false)
    let failLoads = Atomic<Bool>(false)
    /// A commit that writes a text longer than this many bytes is refused (0: none is).
    let refuseTextsOver = Atomic<Int>(0)
    /// While set, a commit waits (looking every millisecond) until it is cleared.
    let holdCommits = Atomic<Bool>(false)
    /// Commits waiting in `holdCommits` now.
    let commitsHeld = Atomic<Int>(0)
    /// Commits asked of it, taken or not.
    let commits = Atomic<Int>(0)
    /// Whole loads asked of it (a reload reads the whole database).
    let loads = Atomic<Int>(0)

    init(_ inner: SQLiteStore) { self.inner = inner }

    var isDurable: Bool { inner.isDurable }
    var historyID: String { inner.historyID }
    func load() throws -> ModelSnapshot? {
        loads.add(1, ordering: .relaxed)
        if failLoads.load(ordering: .acquiring) { throw StorageError("the store's file cannot be read (test)") }
        return try inner.load()
    }
    func seed(_ snapshot: ModelSnapshot) throws { try inner.seed(snapshot) }
    func commit(_ batch: CommitBatch) throws {
        commits.add(1, ordering: .relaxed)
        if holdCommits.load(ordering: .acquiring) {
            commitsHeld.add(1, ordering: .releasing)
            while holdCommits.load(ordering: .acquiring) { usleep(1_000) }
            commitsHeld.subtract(1, ordering: .releasing)
        }
        if failCommits.load(ordering: .acquiring) { throw StorageError("disk full (test)") }
        let most = refuseTextsOver.load(ordering: .acquiring)
        if most > 0, batch.mutations.contains(where: { BrokenStore.longestText($0) > most }) {
            throw StorageError("no room for a row that long (test)")
        }
        try inner.commit(batch)
    }

    private static func longestText(_ m: Mutation) -> Int {
        guard case .put(let row) = m.change else { return 0 }
        return row.values.map { if case .text(let t) = $0 { t.utf8.count } else { 0 } }.max() ?? 0
    }
    func oldestRevision() throws -> UInt64 { try inner.oldestRevision() }
    var describe: String { "broken " + inner.describe }
    var kind: String { inner.kind }
    func close() { inner.close() }
    func openHistoryReader() throws -> HistoryReader? { try inner.openHistoryReader() }
}
