import TabulaModel
import TabulaProtocol

/// One group commit: the changes of several requests, written in one transaction.
public struct CommitBatch: Sendable {
    /// What to write, in order.
    public var mutations: [Mutation]
    /// The events these mutations made, in revision order (for the durable history).
    public var events: [Event]
    /// The revision after the batch.
    public var revision: UInt64
    /// Where each event's mutations end in `mutations` (event `i` made
    /// `mutations[ends[i-1]..<ends[i]]`), for a store that hands changes to other nodes.
    public var mutationEnds: [Int]

    /// Makes a batch (without `mutationEnds`, every mutation belongs to the last event).
    public init(mutations: [Mutation], events: [Event], revision: UInt64, mutationEnds: [Int]? = nil) {
        self.mutations = mutations
        self.events = events
        self.revision = revision
        self.mutationEnds = mutationEnds ?? events.indices.map { $0 == events.count - 1 ? mutations.count : 0 }
    }

    /// The mutations of event `i`.
    public func mutations(ofEvent i: Int) -> ArraySlice<Mutation> {
        mutations[(i == 0 ? 0 : mutationEnds[i - 1])..<mutationEnds[i]]
    }
}

/// One change another node committed: its event and what it did to the tables.
public struct StoredChange: Sendable {
    /// The event, with its revision.
    public var event: Event
    /// What it changed.
    public var mutations: [Mutation]
    /// Makes one.
    public init(event: Event, mutations: [Mutation]) {
        self.event = event
        self.mutations = mutations
    }
}

/// The store's history no longer continues this node's: its head is behind the node (a
/// restore from a backup, a failover to a standby that was behind), or the changes the
/// node missed were trimmed. The node must reload and drop its clients, never serve both.
public struct HistoryDiverged: Error, CustomStringConvertible, Sendable {
    /// What happened, for the log and the clients' `* BYE`.
    public var description: String
    /// Makes one.
    public init(_ description: String) { self.description = description }
}

/// Durable state behind the server: load at start, commit batches, replay history.
///
/// `commit` returns only once the batch is as durable as the store promises (for SQLite with
/// `sync full`: on disk). A throwing `commit` means nothing of the batch was stored.
public protocol StateStore: AnyObject, Sendable {
    /// Whether it keeps anything: a store that does not needs no mutations, no durable
    /// history and no commit before a reply (the server then applies writes on its I/O loops).
    var isDurable: Bool { get }
    /// The id of this store's history: made once when the history starts (a new file; each
    /// start of a store that keeps nothing) and kept for its lifetime, so that clients can
    /// tell a server that continues their history from one that started over.
    var historyID: String { get }
    /// The stored model, or nil for a new, empty store (the caller then seeds it).
    func load() throws -> ModelSnapshot?
    /// Stores a whole model (used once, to seed a new store).
    func seed(_ snapshot: ModelSnapshot) throws
    /// Writes a batch atomically.
    func commit(_ batch: CommitBatch) throws
    /// The oldest revision still in the history (0 when the history is empty).
    func oldestRevision() throws -> UInt64
    /// A reader of the stored history for another thread (an I/O loop streaming a replay),
    /// or nil when the store keeps no history.
    func openHistoryReader() throws -> HistoryReader?
    /// A short description for the log: "memory" or the file path.
    var describe: String { get }
    /// What kind of store, for clients (`STATS`): "memory" or "sqlite"; never a path.
    var kind: String { get }
    /// Releases the store (its file and lock); nothing may be called after.
    func close()
    /// Whether other processes write to the same store (a cluster): the engine then locks
    /// the store's head for each turn that writes, and follows the others' changes.
    var isShared: Bool { get }
    /// Starts a write turn of a shared store: locks its head (until `commit` or
    /// `abandonWrite`) and returns what other nodes committed after `applied`, in order.
    func beginWrite(after applied: UInt64) throws -> [StoredChange]
    /// What other nodes committed after `applied` (at most `limit` changes), without a lock.
    func changes(after applied: UInt64, limit: Int) throws -> [StoredChange]
    /// Ends a write turn that wrote nothing (releases the head); false when what the turn
    /// read from other nodes could not be confirmed durable (it must not be shown: reload).
    func abandonWrite() -> Bool
    /// What wakes a node when another commits, for a shared store (nil otherwise).
    func openChangeListener() -> ChangeListener?
}

/// Waits for other nodes' commits to a shared store.
public protocol ChangeListener: AnyObject {
    /// Waits up to `timeoutMs` for a commit notification and returns the store's durable head
    /// revision (as announced, or read when nothing came); throws while the store cannot be
    /// reached (the next call reconnects).
    func next(timeoutMs: Int32) throws -> UInt64
}

extension StateStore {
    /// One process owns an SQLite file or a memory store.
    public var isShared: Bool { false }
    /// Nobody else writes.
    public func beginWrite(after applied: UInt64) throws -> [StoredChange] { [] }
    /// Nobody else writes.
    public func changes(after applied: UInt64, limit: Int) throws -> [StoredChange] { [] }
    /// Nothing is held.
    public func abandonWrite() -> Bool { true }
    /// Nobody else writes.
    public func openChangeListener() -> ChangeListener? { nil }
}

/// A store that keeps nothing: `--memory`. Its history is only what the server holds in memory.
public final class MemoryStore: StateStore, @unchecked Sendable {
    /// Makes one, with a history of its own.
    public init() { historyID = HistoryID.make() }
    /// Keeps nothing.
    public var isDurable: Bool { false }
    /// New with every store: nothing survives it.
    public let historyID: String
    /// Always empty: the server seeds.
    public func load() throws -> ModelSnapshot? { nil }
    /// Keeps nothing.
    public func seed(_ snapshot: ModelSnapshot) throws {}
    /// Keeps nothing.
    public func commit(_ batch: CommitBatch) throws {}
    /// No durable history.
    public func oldestRevision() throws -> UInt64 { 0 }
    /// No durable history.
    public func openHistoryReader() throws -> HistoryReader? { nil }
    /// Nothing to release.
    public func close() {}
    /// "memory".
    public var describe: String { "memory (nothing is kept after exit)" }
    /// "memory".
    public var kind: String { "memory" }
}

/// Why a store could not be opened or written; the message says what to do.
public struct StorageError: Error, CustomStringConvertible, Sendable {
    /// What went wrong and what to do.
    public var message: String
    /// Makes one.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// History ids: 16 hex digits from the system's random source.
public enum HistoryID {
    /// A new id.
    public static func make() -> String { format(UInt64.random(in: 1...UInt64.max)) }
    /// The id as written: 16 lower-case hex digits.
    public static func format(_ v: UInt64) -> String {
        let hex = String(v, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
