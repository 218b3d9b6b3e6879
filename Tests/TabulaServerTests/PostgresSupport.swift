import Foundation
import TabulaServer
import TabulaStorage
import TabulaTestSupport

/// Two in-process nodes on one fresh database; both stopped after `body`.
func withCluster(
    nodes n: Int = 2, history: Int = 1_000_000, inMemory: Int? = nil,
    _ body: (_ nodes: [Server], _ conninfo: String) throws -> Void
) throws {
    let db = try freshDatabase()
    var servers: [Server] = []
    defer { for s in servers { s.stop() } }
    for _ in 0..<n {
        var config = ServerConfig()
        config.port = 0
        config.logLevel = ProcessInfo.processInfo.environment["TABULA_TEST_LOG"] == nil ? .error : .debug
        config.setHistory(inMemory ?? history, durable: true)
        let s = try Server(config: config, store: try PostgresStore(conninfo: db, historyLimit: history))
        s.start()
        servers.append(s)
    }
    try body(servers, db)
}

/// The revision a change's reply names (`rev=N` at the end of its final line).
func revision(of final: String) -> UInt64? {
    guard let r = final.range(of: " rev=", options: .backwards) else { return nil }
    return UInt64(final[r.upperBound...])
}
