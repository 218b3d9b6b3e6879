import CSQLite3
import Testing
import TabulaModel
import TabulaProtocol
import TabulaStorage

/// A file of schema 2 (every table with a rowid, the text keys in an index beside it) is
/// converted once on open to schema 3 (the text- and two-column-keyed tables WITHOUT ROWID)
/// and loses nothing.
@Suite struct SQLiteSchemaMigrationTests {
    /// Rebuilds `table` as the build before schema 3 made it (a rowid table), and keeps its rows.
    static func asSchema2(_ table: String, _ columns: String, key: String) -> String {
        """
        CREATE TABLE \(table)_2(\(columns), PRIMARY KEY(\(key)));
        INSERT INTO \(table)_2 SELECT * FROM \(table);
        DROP TABLE \(table);
        ALTER TABLE \(table)_2 RENAME TO \(table);
        """
    }

    static func scalar(_ path: String, _ sql: String) -> String {
        var db: OpaquePointer?
        sqlite3_open(path, &db)
        defer { sqlite3_close(db) }
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK else { return "" }
        defer { sqlite3_finalize(stmt) }
        guard sqlite3_step(stmt) == SQLITE_ROW, let text = sqlite3_column_text(stmt, 0) else { return "" }
        return String(cString: text)
    }

    @Test func aFileOfSchemaTwoIsConvertedOnceAndLosesNothing() throws {
        var (path, model) = try fileWithThreeChanges()
        try sqlite3(
            path,
            [
                Self.asSchema2("meta", "key TEXT NOT NULL, value INTEGER NOT NULL", key: "key"),
                Self.asSchema2(
                    "settings",
                    "slug TEXT NOT NULL, position INTEGER NOT NULL, title TEXT NOT NULL, type TEXT NOT NULL, options TEXT NOT NULL, selected INTEGER NOT NULL",
                    key: "slug"),
                Self.asSchema2(
                    "menu_entries",
                    "section INTEGER NOT NULL, position INTEGER NOT NULL, slug TEXT NOT NULL, title TEXT NOT NULL",
                    key: "section, position"),
                "PRAGMA user_version=2;",
            ].joined(separator: "\n"))
        #expect(Self.scalar(path, "SELECT count(*) FROM sqlite_master WHERE sql LIKE '%WITHOUT ROWID%'") == "0")

        let store = try SQLiteStore(path: path)
        let loaded = try #require(try store.load())
        #expect(Model(snapshot: loaded).snapshot == model.snapshot)
        #expect(loaded.revision == 3)
        // It goes on where it was: the next order's id follows the ones before.
        try applyAndCommit(["ORDER tiramisu"], model: &model, store: store)
        #expect(Model(snapshot: try #require(try store.load())).snapshot == model.snapshot)
        store.close()
        #expect(Self.scalar(path, "PRAGMA user_version") == "\(SQLiteStore.schemaVersion)")
        let withoutRowid = Self.scalar(
            path,
            "SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%WITHOUT ROWID' ORDER BY name)"
        )
        #expect(withoutRowid == "menu_entries meta settings")
    }
}
