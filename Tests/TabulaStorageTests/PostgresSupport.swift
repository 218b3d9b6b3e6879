import Foundation
@testable import TabulaStorage

/// The PostgreSQL the tests use: `TABULA_TEST_POSTGRES` (a conninfo with rights to create
/// databases), which Scripts/test sets after starting a private server.
let testPostgres = ProcessInfo.processInfo.environment["TABULA_TEST_POSTGRES"]

/// A new, empty database on the test server; its conninfo.
func freshDatabase() throws -> String {
    let admin = try PGConnection(testPostgres ?? "", name: "tabula-tests")
    let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
    try admin.exec("CREATE DATABASE \(name)")
    return (testPostgres ?? "") + " dbname=\(name)"
}

/// Runs SQL on a database, as another program would.
func psql(_ conninfo: String, _ sql: String) throws {
    try PGConnection(conninfo, name: "tabula-tests").exec(sql)
}
