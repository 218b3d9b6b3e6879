import Foundation
import Testing

@testable import TabulaServer

/// The figures the code defines are the ones the documents state: Protocol.md's limits table
/// (section 10) against `ServerConfig`'s defaults and the loop's and engine's bounds, and
/// `tabulad --help`'s defaults against the same. Changing a figure on one side only fails
/// here, so a stale number cannot come back.
@Suite struct DocumentedFiguresTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Section 10's rows: (limit, default, flag) cells.
    static func limits() throws -> [(limit: String, value: String, flag: String)] {
        let doc = try text("Protocol.md")
        let start = try #require(doc.range(of: "## 10. Limits")), end = try #require(doc.range(of: "## 11."))
        return doc[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 4, line.hasPrefix("|"), !cells[1].hasPrefix("---"), cells[1] != "limit" else {
                return nil
            }
            return (cells[1], cells[2], cells[3])
        }
    }

    /// The first number a cell states, in bytes for KiB and MiB (`8 MiB` → 8,388,608).
    static func number(_ cell: String) -> Int? {
        guard let r = cell.range(of: #"[0-9][0-9,]*"#, options: .regularExpression),
            let n = Int(cell[r].replacingOccurrences(of: ",", with: ""))
        else { return nil }
        let after = cell[r.upperBound...].trimmingCharacters(in: .whitespaces)
        return after.hasPrefix("MiB") ? n << 20 : after.hasPrefix("KiB") ? n << 10 : n
    }

    static let config = ServerConfig()
    /// Each flag of the limits table and the default the server takes.
    static let flags: [String: Int] = [
        "--max-line": config.maxLine, "--max-connections": config.maxConnections, "--output-limit": config.outputLimit,
        "--history-memory": config.historyBytesInMemory, "--max-connections-per-ip": config.maxConnectionsPerAddress,
        "--stall-timeout": config.stallTimeout, "--handshake-timeout": config.handshakeTimeout,
        "--max-partial-input": config.maxPartialInput, "--max-unread-output": config.maxUnreadOutput,
    ]

    @Test func everyFlagOfTheLimitsTableStatesTheServersDefault() throws {
        let rows = try Self.limits()
        for (flag, value) in Self.flags {
            let row = try #require(rows.first { $0.flag.hasPrefix("`\(flag)`") }, "no row of section 10 names \(flag)")
            #expect(
                Self.number(row.value) == value,
                "Protocol.md says \(flag) defaults to '\(row.value)'; the server takes \(value)")
        }
    }

    /// Rows without a flag, by the start of their label, and the figures they must state.
    static let bounds: [(String, [Int])] = [
        (
            "requests answered under one hold of the state lock",
            [RequestExecutor.unitsPerLock, RequestExecutor.rowsPerLock]
        ),
        ("requests of one client run by the engine in one turn", [Engine.unitsPerGroup, Engine.rowsPerGroup]),
        ("requests run under one hold of the write lock by the engine", [Engine.unitsPerTurn]),
        ("prefixes one connection watches", [RequestExecutor.mostWatches]),
        ("a client's requests run, and its replay is sent", [config.outputPause]),
    ]

    @Test func theLoopsAndTheEnginesBoundsAreTheOnesTheLimitsTableStates() throws {
        let rows = try Self.limits()
        for (label, figures) in Self.bounds {
            let row = try #require(rows.first { $0.limit.hasPrefix(label) }, "no row of section 10 begins '\(label)'")
            var stated: [Int] = []
            var rest = Substring(row.value)
            while let r = rest.range(of: #"[0-9][0-9,]*( KiB| MiB)?"#, options: .regularExpression) {
                if let n = Self.number(String(rest[r])) { stated.append(n) }
                rest = rest[r.upperBound...]
            }
            #expect(
                Array(stated.prefix(figures.count)) == figures,
                "'\(label)': Protocol.md says \(row.value); the code has \(figures)")
        }
        let replay = try #require(rows.first { $0.limit.contains("WATCH … FROM") })
        #expect(
            replay.value.contains("\(EventLoop.replayStepsPerTurn) steps per I/O thread turn"),
            "the replay row says \(replay.value)")
        let architecture = try Self.text("docs/architecture.md")
        #expect(
            architecture.contains("share \(EventLoop.replayStepsPerTurn) steps a turn"),
            "docs/architecture.md states another number of replay steps a turn")
    }

    @Test func tabuladsHelpStatesTheSameDefaults() throws {
        let main = try Self.text("Sources/tabulad/main.swift")
        for flag in ["--max-line", "--max-connections", "--output-limit", "--stall-timeout"] {
            // The option's spec runs from its name to the next option's (its help may span lines).
            let start = try #require(main.range(of: "\"\(flag)\", value:"), "no option \(flag)")
            let rest = main[start.upperBound...]
            let line = rest[..<(rest.range(of: "OptionSpec(")?.lowerBound ?? rest.endIndex)]
            let stated = try #require(
                line.range(of: #"\(default [0-9]+"#, options: .regularExpression), "\(flag)'s help states no default")
            #expect(Int(line[stated].dropFirst("(default ".count)) == Self.flags[flag], "--help: \(line)")
        }
    }
}
