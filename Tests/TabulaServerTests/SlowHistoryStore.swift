import Foundation
import TabulaModel
import TabulaProtocol
import TabulaStorage

/// A real SQLite store whose history reads each take `delay` longer, as a cold disk or a
/// stalled PostgreSQL would: for checking that a replay reading the store holds up no one.
final class SlowHistoryStore: StateStore, @unchecked Sendable {
    let inner: SQLiteStore
    let delay: Double

    init(_ inner: SQLiteStore, delay: Double) {
        self.inner = inner
        self.delay = delay
    }

    var isDurable: Bool { inner.isDurable }
    var historyID: String { inner.historyID }
    func load() throws -> ModelSnapshot? { try inner.load() }
    func seed(_ snapshot: ModelSnapshot) throws { try inner.seed(snapshot) }
    func commit(_ batch: CommitBatch) throws { try inner.commit(batch) }
    func oldestRevision() throws -> UInt64 { try inner.oldestRevision() }
    var describe: String { "slow " + inner.describe }
    var kind: String { inner.kind }
    func close() { inner.close() }

    func openHistoryReader() throws -> HistoryReader? {
        try inner.openHistoryReader().map { SlowReader($0, delay: delay) }
    }

    final class SlowReader: HistoryReader {
        let inner: HistoryReader
        let delay: Double

        init(_ inner: HistoryReader, delay: Double) {
            self.inner = inner
            self.delay = delay
        }

        func oldestRevision() throws -> UInt64 { try inner.oldestRevision() }

        func count(after: UInt64, through: UInt64, under prefix: String) throws -> Int {
            Thread.sleep(forTimeInterval: delay)  // the slow disk this stands for, not a wait in a test
            return try inner.count(after: after, through: through, under: prefix)
        }

        func events(after: UInt64, through: UInt64, under prefix: String, limit: Int, more: (Event) -> Bool) throws -> [Event] {
            Thread.sleep(forTimeInterval: delay)
            return try inner.events(after: after, through: through, under: prefix, limit: limit, more: more)
        }
    }
}
