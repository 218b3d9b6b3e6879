import Testing
@testable import TabulaStorage
import TabulaModel
import TabulaProtocol

/// A group commit writes only the mutations no later one of its batch makes moot; what the
/// tables hold afterwards must be exactly what writing every mutation would leave.
@Suite struct LastWritesTests {
    /// Tables as a store keeps them: `a` keyed by one column, `m` by two (its delete names
    /// only the first, as the SQL does), a counter; `replaceAll` clears a table.
    struct Tables: Equatable {
        var rows: [String: [[StoredValue]]] = [:]
        var counters: [String: Int64] = [:]

        mutating func apply(_ m: Mutation, keyColumns: Int) {
            switch m.change {
            case .put(let row):
                let v = row.values
                rows[m.table, default: []].removeAll { Array($0.prefix(keyColumns)) == Array(v.prefix(keyColumns)) }
                rows[m.table, default: []].append(v)
            case .delete(let k): rows[m.table, default: []].removeAll { $0[0] == k }
            case .replaceAll(let all): rows[m.table] = all
            case .counter(let v): counters[m.table] = max(counters[m.table] ?? 0, v)
            }
        }

        static func after(_ ms: [Mutation]) -> Tables {
            var t = Tables()
            for m in ms { t.apply(m, keyColumns: m.table == "m" ? 2 : 1) }
            for k in t.rows.keys { t.rows[k]?.sort { "\($0)" < "\($1)" } }
            return t
        }
    }

    static let alphabet: [Mutation] = [
        Mutation("a", .put([.int(1), .text("x")])), Mutation("a", .put([.int(1), .text("y")])),
        Mutation("a", .put([.int(2), .text("z")])),
        Mutation("a", .delete(.int(1))), Mutation("a", .replaceAll([[.int(3), .text("w")]])),
        Mutation("m", .put([.int(1), .int(1), .text("p")])), Mutation("m", .put([.int(1), .int(2), .text("q")])),
        Mutation("m", .delete(.int(1))),
        Mutation("n", .counter(4)), Mutation("n", .counter(2)),
    ]

    @Test func everySequenceOfUpToFourLeavesTheTablesAsWritingItAllWould() {
        let k = LastWritesTests.alphabet.count
        var checked = 0
        for length in 1...4 {
            var total = 1
            for _ in 0..<length { total *= k }
            for code in 0..<total {
                var c = code
                let ms = (0..<length).map { _ in
                    defer { c /= k }; return LastWritesTests.alphabet[c % k]
                }
                let thinned = LastWrites.of(ms, singleKey: ["a"])
                #expect(Tables.after(thinned) == Tables.after(ms), "\(ms)")
                checked += 1
            }
        }
        #expect(checked == 11_110)
    }

    @Test func aRowWrittenByEveryRequestOfABatchIsWrittenOnce() {
        let ms = (1...20).map { Mutation("a", .put([.int(1), .int(Int64($0))])) }
        #expect(LastWrites.of(ms, singleKey: ["a"]) == [ms[19]])
    }

    @Test func rowsOfTablesKeyedByTwoColumnsAreNeverSkipped() {
        let ms = [
            Mutation("m", .put([.int(1), .int(1), .text("p")])), Mutation("m", .put([.int(1), .int(1), .text("q")])),
        ]
        #expect(LastWrites.of(ms, singleKey: ["a"]) == ms)
    }
}
