import Foundation
import TabulaModel
import TabulaProtocol

/// The cluster store: every node of a cluster points at one PostgreSQL database
/// (`--postgres CONNINFO`), which holds the lists' tables, the change table (the one global
/// history) and a one-row head whose revision every writing transaction locks and advances.
///
/// Why a locked head: sequences leave gaps and commit out of order, so a reader that polls by
/// number could pass a change that commits late. Every write turn of every node locks the
/// head row first, so turns commit one after another in revision order, and a reader of the
/// change table always sees a gapless prefix of the history. (PostgreSQL makes a commit
/// visible before it releases the commit's row locks.)
///
/// Why a durable head beside it: a turn commits without waiting for the WAL flush
/// (`synchronous_commit = off` for that transaction alone), so the head's lock is released
/// as soon as the turn's rows are written and the next turn, of any node, starts while this
/// one's flush is under way. In the same round trip a second transaction, committed with
/// `synchronous_commit = on`, raises `tabula_durable` to the turn's revision and notifies:
/// its flush covers the turn's commit record (the WAL is flushed in order), so once it
/// returns the turn is durable, and only then are the writers answered. Nodes follow
/// `tabula_durable`, never the head, so no node shows a change that a crash of PostgreSQL
/// could still take back. A node that has seen no other node write for a second (`alone`)
/// raises the durable head inside its turn and flushes there: nobody waits for the head, and
/// one commit costs less than two.
///
/// The engine thread owns this object and its connection. A lost connection is retried with
/// back-off (0.1 s doubling to 2 s); meanwhile every call fails at once, so writes get
/// `ERR STORAGE` instead of waiting.
public final class PostgresStore: StateStore, @unchecked Sendable {
    /// The schema version this build writes; a newer database is refused.
    public static let schemaVersion: Int64 = 2
    /// The channel the durable steps notify (payload: the revision now durable).
    public static let channel = "tabula_changes"

    let conninfo: String
    let historyLimit: Int
    let tables = PostgresTables()
    let codec = MutationCodec()
    private var db: PGConnection?
    private var retryAt = 0.0
    private var backoff = 0.1
    private var lastError = ""
    /// The id of the write turn's transaction, read inside it by `beginWrite`: if the
    /// connection breaks during COMMIT, `CommitOutcome` asks PostgreSQL what became of it.
    private var turnTxid: UInt64?
    /// The last revision the write turn read from other nodes (perhaps not flushed yet).
    private var turnCaughtThrough: UInt64?
    /// When this node last read a change another node made (its clock, in seconds).
    private var othersSeenAt = -Double.infinity
    /// How long without another node's change before a node counts itself alone, in
    /// seconds (a test that needs a node not alone however slow the machine sets it longer).
    var aloneAfter = 1.0

    /// Whether no other node has written for `aloneAfter`: then nobody waits for the head,
    /// and a turn flushes inside its own transaction (one commit, not two); a node that
    /// writes while this one counts itself alone waits for one flush, and this node's next
    /// turn reads its change and no longer does.
    var alone: Bool { Date().timeIntervalSince1970 - othersSeenAt > aloneAfter }
    /// Made when the database is first used; shared by every node of the cluster.
    public private(set) var historyID = ""

    /// Connects, and creates or checks the schema.
    public init(conninfo: String, historyLimit: Int = 1_000_000) throws {
        self.conninfo = conninfo
        self.historyLimit = max(1, historyLimit)
        let db = try PGConnection(conninfo, name: "tabulad")
        try PostgresStore.configure(db)
        try PostgresSchema.prepare(db, tables: tables)
        historyID = try PostgresSchema.historyID(db)
        self.db = db
    }

    static func configure(_ db: PGConnection) throws {
        // Every commit waits for PostgreSQL's WAL flush (and its synchronous standbys, if
        // any); a head held by a hung node fails a write after 5 s instead of waiting on.
        try db.exec(
            "SET synchronous_commit = on; SET lock_timeout = '5s'; SET statement_timeout = '30s'; SET standard_conforming_strings = on"
        )
    }

    /// The connection, reconnecting when it broke and the back-off allows.
    private func connection() throws -> PGConnection {
        if let db, db.isUp { return db }
        db?.close()
        db = nil
        let now = Date().timeIntervalSince1970
        guard now >= retryAt else {
            throw StorageError("PostgreSQL is unreachable (\(lastError)); this node retries every \(backoff) s")
        }
        do {
            let c = try PGConnection(conninfo, name: "tabulad")
            try PostgresStore.configure(c)
            db = c
            backoff = 0.1
            return c
        } catch {
            lastError = "\(error)"
            backoff = min(backoff * 2, 2)
            retryAt = now + backoff
            throw error
        }
    }

    /// Runs `body`; a failure that broke the connection drops it, so the next call reconnects.
    private func using<R>(_ body: (PGConnection) throws -> R) throws -> R {
        let c = try connection()
        do {
            return try body(c)
        } catch {
            if !c.isUp {
                lastError = "\(error)"
                retryAt = Date().timeIntervalSince1970 + backoff
            }
            throw error
        }
    }

    public var isDurable: Bool { true }
    public var isShared: Bool { true }
    public var kind: String { "postgresql" }
    /// The connection string without a password.
    public var describe: String { "PostgreSQL " + PostgresStore.redacted(conninfo) }

    /// Runs `sql` on a connection of its own to `conninfo` (administration: creating a
    /// database, a test making a fault), outside any store.
    public static func execute(_ sql: String, conninfo: String) throws {
        let c = try PGConnection(conninfo, name: "tabula-admin")
        defer { c.close() }
        _ = try c.exec(sql)
    }

    /// `conninfo` with any password replaced by `***`.
    public static func redacted(_ conninfo: String) -> String {
        conninfo.replacingOccurrences(
            of: #"(password\s*=\s*)('[^']*'|\S+)"#, with: "$1***", options: .regularExpression
        )
        .replacingOccurrences(of: #"(://[^:/@]*:)[^@]*@"#, with: "$1***@", options: .regularExpression)
    }

    public func close() {
        db?.close()
        db = nil
    }

    // MARK: - Loading

    /// The state at the head, made durable before it is returned (the durable step after the
    /// read: a turn that committed just before it may not have been flushed yet).
    public func load() throws -> ModelSnapshot? {
        try using { db in
            try db.exec("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            let snapshot: ModelSnapshot?
            do {
                if try db.exec("SELECT value FROM tabula_meta WHERE key = 'seeded'").count > 0 {
                    let head = try db.exec("SELECT rev FROM tabula_head WHERE id = 1").int(0, 0)
                    snapshot = ModelSnapshot(revision: UInt64(head), mutations: try tables.load(from: db))
                } else {
                    snapshot = nil
                }
                try db.exec("COMMIT")
            } catch {
                _ = try? db.exec("ROLLBACK")
                throw error
            }
            if let snapshot { try db.exec(PostgresStore.durable(through: snapshot.revision)) }
            return snapshot
        }
    }

    /// Stores the first model, unless another node did so first (both then load that one).
    public func seed(_ s: ModelSnapshot) throws {
        try using { db in
            try db.exec("BEGIN; SELECT rev FROM tabula_head WHERE id = 1 FOR UPDATE")
            do {
                if try db.exec("SELECT 1 FROM tabula_meta WHERE key = 'seeded'").count == 0 {
                    try db.exec(
                        try tables.sql(s.mutations)
                            + "INSERT INTO tabula_meta(key, value) VALUES ('seeded', 1); UPDATE tabula_head SET rev = \(s.revision) WHERE id = 1; UPDATE tabula_durable SET rev = \(s.revision) WHERE id = 1"
                    )
                }
                try db.exec("COMMIT")
            } catch {
                _ = try? db.exec("ROLLBACK")
                throw error
            }
        }
    }

    // MARK: - Writing

    /// Locks the head and reads what others committed after `applied`, in one round trip:
    /// the read is a statement of its own, so it sees every commit before the lock was ours.
    public func beginWrite(after applied: UInt64) throws -> [StoredChange] {
        try using { db in
            do {
                let r = try db.execEach(
                    "BEGIN; SET LOCAL synchronous_commit = off; SELECT rev FROM tabula_head WHERE id = 1 FOR UPDATE; SELECT txid_current(); \(PostgresStore.changesAfter(applied))"
                )
                turnTxid = UInt64(r[3].int(0, 0))
                let caught = try changes(r[4], after: applied, head: UInt64(r[2].int(0, 0)), limit: Int.max)
                turnCaughtThrough = caught.last?.event.rev
                return caught
            } catch {
                _ = try? db.exec("ROLLBACK")
                throw error
            }
        }
    }

    /// The changes after `applied` through `upper`, an SQL expression (by default the head,
    /// as locked): a bounded range, so the planner keeps to the primary key however large
    /// the table.
    static func changesAfter(_ applied: UInt64, through upper: String = "(SELECT rev FROM tabula_head WHERE id = 1)")
        -> String
    {
        "SELECT rev, kind, path, summary, payload, mutations FROM tabula_changes WHERE rev > \(applied) AND rev <= \(upper) ORDER BY rev"
    }

    public func abandonWrite() -> Bool {
        turnTxid = nil
        let through = turnCaughtThrough
        turnCaughtThrough = nil
        guard let db, (try? db.exec("ROLLBACK")) != nil else { return through == nil }
        // What the turn caught may not be flushed yet: the durable step makes it so.
        guard let through else { return true }
        guard (try? db.exec(PostgresStore.durable(through: through))) != nil else {
            _ = try? db.exec("ROLLBACK")  // a durable step cut by its lock timeout leaves its transaction open, aborted
            return false
        }
        return true
    }

    /// Writes the batch, its change records and the new head, and commits; the transaction
    /// (and the head's lock) began with `beginWrite`. The commit does not wait for the WAL
    /// flush; the durable step after it, in the same round trip, does (see the type's note).
    public func commit(_ batch: CommitBatch) throws {
        try using { db in
            do {
                var sql = SQLText()
                try tables.sql(batch.mutations, into: &sql)
                let now = Date().timeIntervalSince1970
                if !batch.events.isEmpty {
                    sql.raw("INSERT INTO tabula_changes(rev, time, path, kind, summary, payload, mutations) VALUES ")
                }
                for (i, e) in batch.events.enumerated() {
                    let payload = e.storedPayload
                    sql.raw(i == 0 ? "(\(e.rev), \(now), " : ", (\(e.rev), \(now), ")
                    for text in [e.path, e.kind, e.summary] {
                        sql.literal(text)
                        sql.raw(", ")
                    }
                    sql.literal(bytes: payload)
                    sql.raw(", ")
                    sql.literal(codec.encode(Array(batch.mutations(ofEvent: i))))
                    sql.raw(")")
                }
                sql.raw(";UPDATE tabula_head SET rev = \(batch.revision) WHERE id = 1;")
                if batch.revision > UInt64(historyLimit) {
                    sql.raw("DELETE FROM tabula_changes WHERE rev <= \(batch.revision - UInt64(historyLimit));")
                }
                // The turn's COMMIT releases the head; the durable step waits for the flush
                // (alone, the turn itself waits for it). An error stops the text there.
                sql.raw(
                    alone
                        ? "\(PostgresStore.raiseDurable(to: batch.revision)) SET LOCAL synchronous_commit = on; COMMIT"
                        : "COMMIT; " + PostgresStore.durable(through: batch.revision))
                try db.exec(sql)
                noteHead(batch.revision)
                turnTxid = nil
            } catch {
                let txid = turnTxid
                turnTxid = nil
                guard let txid, try settled(txid, on: db, through: batch.revision, after: error) else {
                    _ = try? db.exec("ROLLBACK")
                    throw error
                }
                noteHead(batch.revision)
            }
        }
    }

    /// The durable step through `revision`: a transaction committed with the session's
    /// `synchronous_commit = on`, so it returns once the WAL is flushed past every turn
    /// committed before it; it raises `tabula_durable` (never lowers it: another node's step
    /// may have gone further) and wakes the other nodes. The row's update is what makes it
    /// wait: PostgreSQL flushes at commit only a transaction that wrote WAL before its commit
    /// record, so one that only notified (or only took a txid) would return unflushed.
    static func durable(through revision: UInt64) -> String {
        "BEGIN; \(raiseDurable(to: revision)) COMMIT"
    }

    /// Raises the durable head to `revision` and notifies, inside a transaction: the durable
    /// step's body, or the end of a turn flushed in itself (`alone`).
    static func raiseDurable(to revision: UInt64) -> String {
        "UPDATE tabula_durable SET rev = greatest(rev, \(revision)) WHERE id = 1; SELECT pg_notify('\(channel)', '\(revision)');"
    }

    /// After a failed commit: true when the turn `txid` committed and is now durable (the
    /// durable step done again), false when it did not commit; throws
    /// `CommitOutcomeUnknown` when that cannot be learned in time.
    private func settled(_ txid: UInt64, on db: PGConnection, through revision: UInt64, after error: Error) throws
        -> Bool
    {
        let durable = PostgresStore.durable(through: revision)
        if db.isUp {
            // The connection is fine, so PostgreSQL answered the failure: ask it directly.
            _ = try? db.exec("ROLLBACK")
            guard (try? db.exec("SELECT txid_status(\(txid))"))?.text(0, 0) == "committed" else { return false }
            if (try? db.exec(durable)) != nil { return true }
            _ = try? db.exec("ROLLBACK")
            throw CommitOutcomeUnknown(
                txid: txid, cause: "the change committed but its flush could not be confirmed (\(error))")
        }
        // The commit's outcome is unknown from here: ask PostgreSQL, on a new connection.
        switch CommitOutcome.of(txid, conninfo: conninfo, confirming: durable) {
        case true?: return true  // it committed: the change is saved, and the node says so
        case false?: return false
        case nil: throw CommitOutcomeUnknown(txid: txid, cause: "\(error)")
        }
    }

    // MARK: - Following

    /// The revision through which the history is flushed: what a node may apply and show.
    static let durableHead = "SELECT rev FROM tabula_durable WHERE id = 1"

    /// What other nodes committed after `applied`, through the durable head only.
    public func changes(after applied: UInt64, limit: Int) throws -> [StoredChange] {
        try using { db in
            // One round trip: the durable head, then the changes up to it (read again inside
            // the statement; `changes` keeps to the first read, should it have moved since).
            let page = applied + min(UInt64(max(0, limit)), UInt64(Int64.max) - min(applied, UInt64(Int64.max)))
            let r = try db.execEach(
                "\(PostgresStore.durableHead); \(PostgresStore.changesAfter(applied, through: "least(\(page), (\(PostgresStore.durableHead)))"))"
            )
            return try changes(r[1], after: applied, head: UInt64(r[0].int(0, 0)), limit: limit)
        }
    }

    /// The changes in `(applied, head]` that `r` read, at most `limit`; throws
    /// `HistoryDiverged` when the head is behind `applied` or the first of them is gone.
    private func changes(_ r: PGResult?, after applied: UInt64, head: UInt64, limit: Int) throws -> [StoredChange] {
        if head < applied {
            throw HistoryDiverged(
                "the store's history is at revision \(head), behind this node's \(applied) (restored from a backup, or failed over to a standby that was behind)"
            )
        }
        // Every node trims the history as it commits: what it holds starts here at most.
        noteHead(head)
        guard head > applied, let r else { return [] }
        othersSeenAt = Date().timeIntervalSince1970
        let n = min(UInt64(limit), head - applied)
        var out: [StoredChange] = []
        out.reserveCapacity(min(r.count, Int(n)))
        for i in 0..<min(r.count, Int(n)) {
            let rev = UInt64(r.int(i, 0))
            guard rev == applied + UInt64(out.count) + 1 else { break }
            out.append(StoredChange(event: r.event(i), mutations: try codec.decode(r.text(i, 5) ?? "[]")))
        }
        if out.count < Int(n) {
            throw HistoryDiverged(
                "the changes after revision \(applied + UInt64(out.count)) are no longer in the store's history (trimmed to --history)"
            )
        }
        return out
    }

    // MARK: - History

    /// Read once, then kept up to date by the commits (no round trip per commit).
    public func oldestRevision() throws -> UInt64 {
        if let oldest { return oldest }
        let v = try using { UInt64(try $0.exec("SELECT coalesce(min(rev), 0) FROM tabula_changes").int(0, 0)) }
        oldest = v
        return v
    }

    private var oldest: UInt64?

    /// The history starts at revision 1 and every committing node trims it to
    /// `--history`: at head `h` it holds `h - limit + 1` on (or 1 on).
    private func noteHead(_ head: UInt64) {
        guard head > 0 else { return }
        let floor = head > UInt64(historyLimit) ? head - UInt64(historyLimit) + 1 : 1
        oldest = max(oldest ?? 0, floor)
    }

    /// A connection of its own that LISTENs for the other nodes' commits.
    public func openChangeListener() -> ChangeListener? { PostgresListener(conninfo: conninfo) }

    /// A connection of its own, for an I/O loop's replays.
    public func openHistoryReader() throws -> HistoryReader? {
        PostgresHistoryReader(conninfo: conninfo)
    }
}
