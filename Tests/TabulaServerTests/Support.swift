import Foundation
import Glibc
import TabulaClient
import TabulaServer
import TabulaStorage

/// Starts an in-process server on a free loopback port; stops it after `body`.
func withServer(
    _ configure: (inout ServerConfig) -> Void = { _ in }, store: StateStore = MemoryStore(),
    _ body: (Server) throws -> Void
) throws {
    var config = ServerConfig()
    config.port = 0
    config.logLevel = ProcessInfo.processInfo.environment["TABULA_TEST_LOG"] == nil ? .error : .debug
    configure(&config)
    let server = try Server(config: config, store: store)
    server.start()
    defer { server.stop() }
    try body(server)
}

/// A store of the named kind: "memory", or "sqlite" in a fresh temporary file.
func makeStore(_ kind: String) throws -> StateStore {
    kind == "memory" ? MemoryStore() : try SQLiteStore(path: tempDB(), syncFull: false)
}

func connect(_ server: Server) throws -> TabulaConnection {
    try TabulaConnection(host: "127.0.0.1", port: server.port, timeout: 30)
}

/// A raw socket: for sending bytes no well-behaved client would.
func rawConnect(_ server: Server) throws -> LineConnection {
    let c = try LineConnection(host: "127.0.0.1", port: server.port)
    try c.sendRaw([10])  // an empty line, as tabula sends: greeted at once, not after 100 ms
    _ = try c.readLine(timeout: 5)  // greeting
    return c
}

/// Reads STATS and returns one counter.
func stat(_ c: TabulaConnection, _ name: String) throws -> Int {
    let r = try c.request("STATS")
    for d in r.data where d.hasPrefix(name + ": ") { return Int(d.dropFirst(name.count + 2)) ?? -1 }
    return -1
}

/// Polls `check` until it holds or `timeout` passes; each poll is a real request to the server.
func eventually(timeout: Double = 10, _ check: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try check() { return true }
        usleep(2000)
    }
    return try check()
}
