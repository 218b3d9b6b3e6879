import Foundation

/// Creates and checks the cluster's schema. Nodes starting at once take an advisory lock, so
/// one creates and the others find it made.
enum PostgresSchema {
    /// "TABL", the advisory lock key of schema changes.
    static let lockKey = 0x5441_424C

    static let base = [
        "CREATE TABLE tabula_meta(key text PRIMARY KEY, value bigint NOT NULL)",
        "CREATE TABLE tabula_head(id int PRIMARY KEY CHECK (id = 1), rev bigint NOT NULL)",
        "INSERT INTO tabula_head(id, rev) VALUES (1, 0)",
        durable,
        "INSERT INTO tabula_durable(id, rev) VALUES (1, 0)",
        """
        CREATE TABLE tabula_changes(rev bigint PRIMARY KEY, time double precision NOT NULL, path text NOT NULL,
            kind text NOT NULL, summary text NOT NULL, payload text NOT NULL, mutations text NOT NULL)
        """,
    ]

    /// The revision through which the history is flushed (schema 2): raised by each turn's
    /// durable step, read by the nodes that follow (`PostgresStore`).
    static let durable = "CREATE TABLE tabula_durable(id int PRIMARY KEY CHECK (id = 1), rev bigint NOT NULL)"

    /// From schema 1 (every turn committed with its flush, so the head was durable): the
    /// durable head starts at the head. Older builds then refuse the database, as they
    /// would follow a head that is not yet flushed.
    static let upgradeFrom1 = [
        durable,
        "INSERT INTO tabula_durable(id, rev) SELECT 1, rev FROM tabula_head WHERE id = 1",
        "UPDATE tabula_meta SET value = 2 WHERE key = 'schema_version'",
    ]

    /// The change table by top-level list (`settings` of `/settings/my-int`, "" of `/`), then
    /// revision: a replay of `/settings` reads the changes of `/settings` and of `/`, not every
    /// list's (`PostgresHistoryReader`). Made in a database from before it too (an index
    /// only: older builds use such a database as before, so the schema version stays).
    static let listIndex = "CREATE INDEX IF NOT EXISTS tabula_changes_list ON tabula_changes ((\(listOfPath)), rev)"

    /// The SQL of a change's top-level list, as the index has it.
    static let listOfPath = "split_part(path, '/', 2)"

    /// Makes the schema in an empty database, checks it in a Tabula one, refuses any other.
    static func prepare(_ db: PGConnection, tables: PostgresTables) throws {
        try db.exec("BEGIN; SELECT pg_advisory_xact_lock(\(lockKey))")
        do {
            let ours = try db.exec("SELECT to_regclass('tabula_meta') IS NOT NULL").text(0, 0) == "t"
            if ours {
                let v = try db.exec("SELECT value FROM tabula_meta WHERE key = 'schema_version'")
                let version = v.count > 0 ? v.int(0, 0) : 0
                if version > PostgresStore.schemaVersion {
                    throw StorageError(
                        "the database has Tabula schema version \(version), newer than this tabulad understands (\(PostgresStore.schemaVersion)); run a newer tabulad"
                    )
                }
                if version == 1 { for sql in upgradeFrom1 { try db.exec(sql) } }
            } else {
                let others = try db.exec("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()").int(0, 0)
                if others > 0 {
                    throw StorageError(
                        "the database given to --postgres holds \(others) tables but is not a Tabula database; give tabulad an empty database of its own (createdb tabula)"
                    )
                }
                for sql in base { try db.exec(sql) }
                try db.exec(
                    "INSERT INTO tabula_meta(key, value) VALUES ('schema_version', \(PostgresStore.schemaVersion)), ('history_id', \(Int64.random(in: 1...Int64.max)))"
                )
            }
            try db.exec(listIndex)
            for sql in tables.creates { try db.exec(sql) }
            try db.exec("COMMIT")
        } catch {
            _ = try? db.exec("ROLLBACK")
            throw error
        }
    }

    /// The cluster's history id.
    static func historyID(_ db: PGConnection) throws -> String {
        let r = try db.exec("SELECT value FROM tabula_meta WHERE key = 'history_id'")
        return HistoryID.format(UInt64(bitPattern: r.int(0, 0)))
    }
}
