import Foundation
import Synchronization
import TabulaModel
import TabulaProtocol
import TabulaStorage

/// A real SQLite store that can be told to refuse commits and loads, as a store whose disk
/// filled and whose file then could not be read would: for checking what the server answers
/// when it cannot undo a refused change by reading the stored state back.
final class BrokenStore: StateStore, Sendable {
    let inner: SQLiteStore
    let failCommits = Atomic<Bool>(false)
    let failLoads = Atomic<Bool>(false)
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
        if failCommits.load(ordering: .acquiring) { throw StorageError("disk full (test)") }
        try inner.commit(batch)
    }
    func oldestRevision() throws -> UInt64 { try inner.oldestRevision() }
    var describe: String { "broken " + inner.describe }
    var kind: String { inner.kind }
    func close() { inner.close() }
    func openHistoryReader() throws -> HistoryReader? { try inner.openHistoryReader() }
}
