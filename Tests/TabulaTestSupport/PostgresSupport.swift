import Foundation
import TabulaStorage

/// The PostgreSQL the tests use: `TABULA_TEST_POSTGRES` (a conninfo with rights to create
/// databases), which Scripts/test sets after starting a private server.
public let testPostgres = ProcessInfo.processInfo.environment["TABULA_TEST_POSTGRES"]

/// A new, empty database on the test server; its conninfo.
public func freshDatabase() throws -> String {
    let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
    try PostgresStore.execute("CREATE DATABASE \(name)", conninfo: testPostgres ?? "")
    return (testPostgres ?? "") + " dbname=\(name)"
}

/// Runs SQL on a database, as another program would.
public func psql(_ conninfo: String, _ sql: String) throws {
    try PostgresStore.execute(sql, conninfo: conninfo)
}
