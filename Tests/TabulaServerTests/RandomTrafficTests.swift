import Foundation
import Testing
import TabulaClient
import TabulaServer
import Synchronization
import TabulaStorage

/// Several clients send random lines (good, bad and half-formed) at once. Every line gets
/// exactly one reply carrying its tag, the server stays up, and a watcher of everything
/// sees every revision exactly once, in order.
@Suite struct RandomTrafficTests {
    static let lines = [
        "LS /items", "SHOW /items/1", "SELECT /settings/my-int #3", "SELECT /settings/my-int 99", "ADD /items",
        "ADD /items Lamp 30",
        "FAV /items/2", "MV /items/1 1", "MV /items/3 9", "ORDER pesto", "ORDER nope", "RM /orders/1", "ADD /catalog",
        "ADD /catalog Node",
        "ADD /catalog/item-3 Child", "BANDS", "BANDS Low 40 High", "FILTER favorites", "FILTER all", "CD /items",
        "CD ..", "PWD", "SET /items/2 value=77",
        "SET /items/2 name=", "COMPLETE sel", "COMPLETE LS /cat", "LS /items LIMIT 2 AFTER 1", "HELP", "STATS", "PING",
        "BOGUS", "SELECT", "ADD \"open",
        "FORMAT json", "FORMAT text", "RM /catalog/node", "UNWATCH", "WATCH /menu", "SHOW /settings/my-string/red",
    ]

    @Test(arguments: ["memory", "sqlite"])
    func randomTrafficFromManyClientsIsAnsweredOneToOneAndEventsStayInOrder(store kind: String) throws {
        try withServer(store: try makeStore(kind)) { s in
            let watcher = try connect(s)
            _ = try watcher.request("WATCH /")
            let port = s.port
            let failures = Mutex<[String]>([])
            let group = DispatchGroup()
            for client in 0..<4 {
                group.enter()
                Thread {
                    defer { group.leave() }
                    var rng = SplitMix(seed: UInt64(client) &+ 77)
                    do {
                        let c = try TabulaConnection(host: "127.0.0.1", port: port, timeout: 30)
                        for i in 0..<400 {
                            let line = RandomTrafficTests.lines[
                                Int(rng.next() % UInt64(RandomTrafficTests.lines.count))]
                            let tag = "c\(client)n\(i)"
                            let reply = try c.request("#\(tag) \(line)")
                            let final = reply.final
                            let tagged =
                                final.hasPrefix("OK #\(tag)") || final.hasPrefix("ERR #\(tag) ")
                                || final.contains("\"tag\":\"\(tag)\"")
                            if !tagged { failures.withLock { $0.append("\(line) → \(final)") } }
                        }
                    } catch {
                        failures.withLock { $0.append("client \(client): \(error)") }
                    }
                }.start()
            }
            group.wait()
            #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 }.prefix(5))")
            let probe = try connect(s)
            let revision = try stat(probe, "revision")
            _ = try watcher.request("PING")
            let revs = watcher.takePushes().compactMap { TabulaConnection.revision(of: $0) }
            #expect(revs == Array(stride(from: 1, through: UInt64(revision), by: 1)))
        }
    }
}

/// A tiny deterministic generator for tests that run on other threads.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
