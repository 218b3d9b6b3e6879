import Foundation
import Synchronization
import TabulaModel
import TabulaProtocol
import TabulaStorage

/// Where a gated history read stops: it says it has come, then waits for the gate to open.
final class HistoryGate: Sendable {
    private let came = DispatchSemaphore(value: 0)
    private let opened = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)

    /// Called by a read: says so, then waits until `open`.
    func pass() {
        came.signal()
        while !opened.load(ordering: .acquiring) { _ = wake.wait(timeout: .now() + 0.05) }
    }

    /// Waits (at most `seconds`) until a read has come to the gate.
    func awaitRead(seconds: Double) -> Bool { came.wait(timeout: .now() + seconds) == .success }

    /// Lets every read through, now and from now on.
    func open() {
        opened.store(true, ordering: .releasing)
        wake.signal()
    }
}

/// A real SQLite store whose history reads stop at a gate until the test opens it, as a cold
/// disk or a stalled PostgreSQL would hold them: for checking that a replay reading the store
/// holds up no one.
final class GatedHistoryStore: StateStore, @unchecked Sendable {
    let inner: SQLiteStore
    let gate: HistoryGate

    init(_ inner: SQLiteStore, gate: HistoryGate) {
        self.inner = inner
        self.gate = gate
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
        try inner.openHistoryReader().map { GatedReader($0, gate: gate) }
    }

    final class GatedReader: HistoryReader {
        let inner: HistoryReader
        let gate: HistoryGate

        init(_ inner: HistoryReader, gate: HistoryGate) {
            self.inner = inner
            self.gate = gate
        }

        func oldestRevision() throws -> UInt64 { try inner.oldestRevision() }

        func count(after: UInt64, through: UInt64, under prefix: String, limit: Int) throws -> (
            count: Int, through: UInt64
        ) {
            gate.pass()
            return try inner.count(after: after, through: through, under: prefix, limit: limit)
        }

        func events(
            after: UInt64, through: UInt64, under prefix: String, limit: Int, payload: Bool, more: (Event) -> Bool
        ) throws -> [Event] {
            gate.pass()
            return try inner.events(
                after: after, through: through, under: prefix, limit: limit, payload: payload, more: more)
        }
    }
}
