import Testing
import TabulaProtocol

@testable import TabulaServer

@Suite struct ChangeHistoryTests {
    static func event(_ rev: UInt64) -> Event? {
        Event(rev: rev, kind: "order", path: "/orders/\(rev)", summary: "", value: .null)
    }

    @Test func itKeepsTheNewestEventsUpToItsCapacityAndHandsBackWhatFallsOut() {
        var h = ChangeHistory(capacity: 3)
        var fallen: [UInt64] = []
        for rev in 1...5 as ClosedRange<UInt64> {
            var e = Self.event(rev)
            h.append(&e)
            if let gone = e { fallen.append(gone.rev) }
        }
        #expect(h.count == 3)
        #expect(h.oldest == 3)
        #expect(fallen == [1, 2])
        #expect(h.events(after: 3, through: 5, under: "/", limit: 10).map(\.rev) == [4, 5])
        #expect(h.events(after: 2, through: 5, under: "/", limit: 10).map(\.rev) == [3, 4, 5])
        #expect(h.events(after: 5, through: 5, under: "/", limit: 10).isEmpty)
        #expect(h.holds(after: 2))
        #expect(!h.holds(after: 1))
    }

    @Test func largeEventsAreBoundedByBytesAsWellAsByCount() {
        let long = "/catalog/" + String(repeating: "a", count: 60_000)
        var h = ChangeHistory(capacity: 100_000, byteCapacity: 1 << 20)
        for rev in 1...200 as ClosedRange<UInt64> {
            var e: Event? = Event(rev: rev, kind: "set", path: long, summary: "x\(rev)", value: .null)
            h.append(&e)
        }
        #expect(h.bytes <= 1 << 20 && h.count == (1 << 20) / (60_009 + 34), "\(h.count) events, \(h.bytes) bytes")
        #expect(
            h.oldest == 200 - UInt64(h.count) + 1 && h.holds(after: 200 - UInt64(h.count))
                && !h.holds(after: 199 - UInt64(h.count)))
        #expect(
            h.events(after: 0, through: 200, under: "/", limit: 1_000).map(\.rev)
                == Array((200 - UInt64(h.count) + 1)...200))
    }

    @Test func aRingThatDroppedByBytesStillGrowsInOrder() {
        var h = ChangeHistory(capacity: 10_000, byteCapacity: 40 * 100)
        for rev in 1...3_000 as ClosedRange<UInt64> {
            let path = rev % 500 == 0 ? "/orders/" + String(repeating: "9", count: 2_000) : "/orders/\(rev)"
            var e: Event? = Event(rev: rev, kind: "order", path: path, summary: "", value: .null)
            h.append(&e)
        }
        let held = h.events(after: 0, through: 3_000, under: "/", limit: 10_000).map(\.rev)
        #expect(held == Array((3_001 - UInt64(held.count))...3_000) && held.count == h.count && h.bytes <= 4_000)
    }

    @Test func itGrowsPastItsFirstAllocationAndKeepsOrderAcrossTheWrap() {
        var h = ChangeHistory(capacity: 5_000)
        for rev in 1...12_345 as ClosedRange<UInt64> {
            var e = Self.event(rev)
            h.append(&e)
        }
        #expect(h.count == 5_000)
        #expect(h.oldest == 7_346)
        #expect(
            h.events(after: 12_340, through: 12_345, under: "/", limit: 10).map(\.rev) == [
                12_341, 12_342, 12_343, 12_344, 12_345,
            ])
        let all = h.events(after: 7_345, through: 12_345, under: "/", limit: 10_000).map(\.rev)
        #expect(all == Array(7_346...12_345))
    }

    @Test func aWindowCountsAndListsOnlyTheEventsUnderAPrefixWithinItsRange() {
        var h = ChangeHistory(capacity: 100)
        for rev in 1...30 as ClosedRange<UInt64> {
            var e: Event? = Event(
                rev: rev, kind: "put", path: rev % 3 == 0 ? "/items/\(rev)" : rev % 3 == 1 ? "/itemsx" : "/items",
                summary: "", value: .null)
            h.append(&e)
        }
        #expect(h.count(after: 0, through: 30, under: "/items") == 20)
        #expect(h.count(after: 10, through: 20, under: "/items") == 7)
        #expect(h.events(after: 10, through: 20, under: "/items", limit: 3).map(\.rev) == [11, 12, 14])
        #expect(h.count(after: 0, through: 30, under: "/") == 30)
    }

    @Test func historyBoundsMemoryWhenNothingIsStoredAndOnlyCapsItOtherwise() {
        var memory = ServerConfig()
        memory.setHistory(10, durable: false)
        #expect(memory.historyInMemory == 10)
        var big = ServerConfig()
        big.setHistory(5_000_000, durable: false)
        #expect(big.historyInMemory == 5_000_000)
        var disk = ServerConfig()
        disk.setHistory(5_000_000, durable: true)
        #expect(disk.historyInMemory == ServerConfig().historyInMemory)
        disk.setHistory(50, durable: true)
        #expect(disk.historyInMemory == 50)
    }
}
