import Foundation
import TabulaProtocol

/// Request lines for generated tests, by verb: for every verb of the table some valid and
/// some invalid lines over the seed data.
enum GeneratedLines {
    static func samples(_ v: Verb) -> [String] {
        switch v {
        case .help: return ["HELP", "HELP LS", "HELP NOPE"]
        case .ping: return ["PING", "PING hello"]
        case .quit: return ["QUIT"]  // only as a pipeline's last line: it closes
        case .ls:
            return [
                "LS /items", "LS /settings", "LS /items LIMIT 2 AFTER 1", "LS /nope", "LS /orders", "LS",
                "LS /items LIMIT 0", "LS /items IF REV 1",
            ]
        case .show: return ["SHOW /items/1", "SHOW /settings/my-int", "SHOW /items/99", "SHOW"]
        case .cd: return ["CD /items", "CD ..", "CD /nope", "CD /catalog"]
        case .pwd: return ["PWD"]
        case .select:
            return [
                "SELECT /settings/my-int #1", "SELECT /settings/my-int #3", "SELECT /settings/my-int 99",
                "SELECT /settings/my-string #2", "SELECT", "SELECT /settings/my-int #2 IF REV 0",
                "SELECT /settings/my-int #4 IF REV 3", "SELECT /settings/my-int #1 IF REV x",
            ]
        case .add:
            return [
                "ADD /items Lamp 30", "ADD /catalog Node", "ADD /catalog/item-3 Child", "ADD /nope x", "ADD \"open",
            ]
        case .set: return ["SET /items/2 value=77", "SET /items/2 name=", "SET /items/1 name=Spoon"]
        case .rm: return ["RM /orders/1", "RM /items/4", "RM /nope", "RM /orders", "RM /catalog/node"]
        case .mv: return ["MV /items/1 1", "MV /items/2 2", "MV /items/3 9"]
        case .fav: return ["FAV /items/2", "FAV /items/1 on", "FAV /items/9", "FAV /items/2 IF REV 1"]
        case .filter: return ["FILTER favorites", "FILTER all", "FILTER bogus"]
        case .bands: return ["BANDS", "BANDS Low 40 High", "BANDS x"]
        case .order: return ["ORDER pesto", "ORDER margherita", "ORDER nope", "ORDER pesto IF REV 2"]
        case .watch:
            return [
                "WATCH /items", "WATCH /", "WATCH /settings FROM 1", "WATCH /nope", "WATCH / FROM 0",
                "WATCH /items SNAPSHOT", "WATCH /orders FROM 0 SNAPSHOT", "WATCH /items/1 SNAPSHOT",
                "WATCH /menu SNAPSHOT SNAPSHOT", "WATCH /orders FROM 0 SNAPSHOT PROGRESS",
                "WATCH /menu PROGRESS SNAPSHOT",
            ]
        case .unwatch: return ["UNWATCH", "UNWATCH /items"]
        case .format: return ["FORMAT json", "FORMAT text", "FORMAT"]
        case .stats: return ["STATS"]
        case .complete: return ["COMPLETE sel", "COMPLETE LS /cat"]
        case .auth: return ["AUTH a b"]
        case .whoami: return ["WHOAMI"]
        case .sync: return ["SYNC 1 TIMEOUT 50", "SYNC", "SYNC 0"]
        case .clients: return ["CLIENTS"]
        // Refusals only: a MULTI drawn at random would queue the lines after it, which the
        // generated oracles answer one at a time (transactions: LineTransactionTests).
        case .multi: return ["MULTI now"]
        case .exec: return ["EXEC"]
        case .discard: return ["DISCARD", "DISCARD all"]
        }
    }

    static let all: [String] = Verb.allCases.flatMap { samples($0) }.filter { $0 != "QUIT" }

    /// `count` lines drawn from every verb's, sometimes ending with QUIT.
    static func pipeline(_ rng: inout SplitMix, count: Int) -> [String] {
        var lines = (0..<count).map { _ in all[Int(rng.next() % UInt64(all.count))] }
        if rng.next() % 8 == 0 { lines[count - 1] = "QUIT" }
        return lines
    }

    /// Whether the reply depends on more than the requests before it (counters, clients,
    /// a wait on the clock), so that a pipelined run's may differ from a one-at-a-time run's.
    static func varies(_ line: String) -> Bool {
        ["STATS", "CLIENTS", "SYNC"].contains { line.hasPrefix($0) }
    }

    /// A reply line with times, serials and the history id masked (they differ between two runs).
    static func masked(_ line: String) -> String {
        var s = line
        for (pattern, with) in [
            (#"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"#, "TIME"), (#"serial(=|":")[0-9A-F]{8}"#, "serial$1X"),
            (#"history id [0-9a-f]{16}"#, "history id X"),
        ] {
            s = s.replacingOccurrences(of: pattern, with: with, options: .regularExpression)
        }
        return s
    }

    /// The seeds a generated test runs: `1 ... fixed` (those of every `Scripts/test`; a seed
    /// that once failed is kept by its test), or, when `TABULA_SEEDS` names a range
    /// (`first-last`, set by `Scripts/bench --soak`), those.
    /// Whether the fixed seeds run (not `TABULA_SEEDS`'s): checks that a run did enough to
    /// mean something hold for the fixed set only (a random seed may draw no change at all).
    static var fixedSeeds: Bool { ProcessInfo.processInfo.environment["TABULA_SEEDS"] == nil }

    static func seeds(_ fixed: Int) -> [UInt64] {
        if let range = ProcessInfo.processInfo.environment["TABULA_SEEDS"] {
            let ends = range.split(separator: "-").compactMap { UInt64($0) }
            if ends.count == 2 && ends[0] <= ends[1] { return Array(ends[0]...ends[1]) }
        }
        return Array(1...UInt64(fixed))
    }
}
