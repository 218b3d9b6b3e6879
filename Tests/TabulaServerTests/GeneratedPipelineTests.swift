import Foundation
import Testing
import TabulaClient
import TabulaProtocol
import TabulaServer
import TabulaStorage
import TabulaTestSupport

/// Pipelines generated from the verb table: every verb, with valid and invalid arguments,
/// tags and FORMAT switches, over one to four connections, some of them watching, on every
/// store. Every request gets exactly one final reply, in order; on one connection the
/// replies equal those of the same requests sent one at a time to a fresh server; a watcher
/// of everything sees every revision once, in order. A failure names its seed.
@Suite(.serialized) struct GeneratedPipelineTests {
    /// Seeds that run on every `Scripts/test` (or `Scripts/bench --soak`'s).
    static let seeds = GeneratedLines.seeds(40)

    static func stores() -> [String] { testPostgres == nil ? ["memory", "sqlite"] : ["memory", "sqlite", "postgres"] }

    static func store(_ kind: String) throws -> StateStore {
        kind == "postgres"
            ? try PostgresStore(conninfo: try freshDatabase(), historyLimit: 100_000) : try makeStore(kind)
    }

    @Test func everyVerbOfTheTableHasGeneratedLines() {
        for v in Verb.allCases { #expect(!GeneratedLines.samples(v).isEmpty, "\(v) has no generated lines") }
    }

    @Test(arguments: stores())
    func aPipelinedSequenceIsAnsweredOneToOneInOrderAndAsWhenSentOneAtATime(store kind: String) throws {
        for seed in Self.seeds.prefix(kind == "postgres" ? 12 : Self.seeds.count) {  // a database each: fewer there
            var rng = SplitMix(seed: seed)
            let lines = GeneratedLines.pipeline(&rng, count: 2 + Int(rng.next() % 11))
            let pipelined = try Self.run(lines, store: kind, pipelined: true)
            #expect(pipelined.map(\.tag) == lines.indices.map { "t\($0)" }, "seed \(seed) on \(kind): \(lines)")
            let alone = try Self.run(lines, store: kind, pipelined: false)
            for (i, line) in lines.enumerated()
            where i < pipelined.count && i < alone.count && !GeneratedLines.varies(line) {
                #expect(pipelined[i].text == alone[i].text, "seed \(seed) on \(kind), line \(i) \(line)")
            }
        }
    }

    @Test(arguments: stores())
    func pipelinesOnSeveralConnectionsAreEachAnsweredInOrderAndAWatcherSeesEveryRevision(store kind: String) throws {
        for seed in Self.seeds.prefix(6) {
            try withServer(store: try Self.store(kind)) { s in
                let watcher = try connect(s)
                _ = try watcher.request("WATCH /")
                var rng = SplitMix(seed: seed &+ 1000)
                let n = 1 + Int(rng.next() % 4)
                let conns = try (0..<n).map { _ in try connect(s) }
                let plans = conns.map { _ in GeneratedLines.pipeline(&rng, count: 2 + Int(rng.next() % 11)) }
                for (c, lines) in zip(conns, plans) {
                    for (i, l) in lines.enumerated() { try c.line.send("#t\(i) \(l)") }
                }
                for (k, (c, lines)) in zip(conns, plans).enumerated() {
                    let tags = try lines.indices.map { _ in try c.readReply(timeout: 10).reply.tag }
                    #expect(
                        tags == lines.indices.map { "t\($0)" }, "seed \(seed) on \(kind), connection \(k): \(lines)")
                }
                let revision = try stat(try connect(s), "revision")
                _ = try watcher.request("PING")
                let revs = watcher.takePushes().compactMap { TabulaConnection.revision(of: $0) }
                #expect(revs == Array(stride(from: 1, through: UInt64(revision), by: 1)), "seed \(seed) on \(kind)")
            }
        }
    }

    @Test(arguments: stores())
    func aWatcherThatPipelinesAChangeThenStatsAndPingGetsEveryReply(store kind: String) throws {
        let lines = ["WATCH /", "SELECT /settings/my-int #1", "STATS", "PING"]  // issue 31's nc line
        #expect(try Self.run(lines, store: kind, pipelined: true).map(\.tag) == ["t0", "t1", "t2", "t3"])
    }

    /// What one reply said: its tag and its lines with times and serials masked.
    struct Answer {
        let tag: String?
        let text: [String]
    }

    /// Sends `lines` (tagged `#tN`) to a fresh server on `kind`, all at once or each after the
    /// last one's reply, and returns the replies in the order they came.
    static func run(_ lines: [String], store kind: String, pipelined: Bool) throws -> [Answer] {
        var answers: [Answer] = []
        try withServer(store: try store(kind)) { s in
            let c = try connect(s)
            func read() throws {
                let r = try c.readReply(timeout: 10);
                answers.append(Answer(tag: r.reply.tag, text: r.lines.map(GeneratedLines.masked)))
            }
            for (i, l) in lines.enumerated() {
                try c.line.send("#t\(i) \(l)")
                if !pipelined { try read() }
            }
            if pipelined { for _ in lines { try read() } }
        }
        return answers
    }
}
