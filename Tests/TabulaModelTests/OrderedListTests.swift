import Testing
import TabulaModel
import TabulaProtocol

@Suite struct OrderedListTests {
    @Test func randomOperationsMatchAPlainArray() {
        var list = OrderedList()
        var reference: [Int] = []
        var flags: Set<Int> = []
        var handles: [Int: ListHandle] = [:]
        var rng = SplitMix64(seed: 7)
        var nextId = 0
        for step in 0..<4000 {
            let op = Int.random(in: 0..<10, using: &rng)
            if op < 4 || reference.isEmpty {
                let appending = Int.random(in: 0..<3, using: &rng) == 0  // append: its own path
                let pos = appending ? reference.count : Int.random(in: 0...reference.count, using: &rng)
                let f = Bool.random(using: &rng)
                handles[nextId] = appending ? list.append(nextId, flagged: f) : list.insert(nextId, at: pos, flagged: f)
                reference.insert(nextId, at: pos)
                if f { flags.insert(nextId) }
                nextId += 1
            } else if op < 6 {
                let id = reference.randomElement(using: &rng)!
                list.remove(handles[id]!)
                reference.removeAll { $0 == id }
                flags.remove(id)
            } else if op < 8 {
                let id = reference.randomElement(using: &rng)!
                let to = Int.random(in: 0..<reference.count, using: &rng)
                handles[id] = list.move(handles[id]!, to: to)
                reference.removeAll { $0 == id }
                reference.insert(id, at: to)
            } else {
                let id = reference.randomElement(using: &rng)!
                let f = !flags.contains(id)
                list.setFlag(handles[id]!, f)
                if f { flags.insert(id) } else { flags.remove(id) }
            }
            if step % 97 == 0 || step == 3999 {
                #expect(list.allHandles.map { list.id($0) } == reference)
                #expect(list.count == reference.count)
                let favs = reference.filter { flags.contains($0) }
                #expect(list.flaggedCount == favs.count)
                #expect(list.page(from: 0, limit: 1_000_000, flaggedOnly: true).map { list.id($0) } == favs)
                for (i, id) in reference.enumerated() {
                    #expect(list.position(handles[id]!) == i)
                    #expect(list.flaggedBefore(handles[id]!) == reference[..<i].filter { flags.contains($0) }.count)
                }
            }
        }
    }

    @Test func aListOfAscendingIdsCountsTheIdsBelowAnyIdAndWalksFromAnyPosition() {
        var rng = SplitMix64(seed: 11)
        var list = OrderedList()
        var reference: [Int] = []
        var handles: [Int: ListHandle] = [:]
        for id in stride(from: 3, to: 3_000, by: 3) {
            handles[id] = list.append(id)
            reference.append(id)
        }
        for _ in 0..<600 {
            let id = reference.remove(at: Int.random(in: 0..<reference.count, using: &rng))
            list.remove(handles[id]!)
        }
        for probe in [Int.min, 0, 3, 4, 1_500, 2_997, 2_998, Int.max]
            + (0..<200).map({ _ in Int.random(in: 0..<3_100, using: &rng) })
        {
            #expect(list.countBelow(probe) == reference.count { $0 < probe }, "below \(probe)")
        }
        for start in [0, 1, reference.count / 2, reference.count - 1, reference.count] {
            #expect(list.handles(from: start).map { list.id($0) } == Array(reference[start...]))
        }
    }

    @Test func pagesStartAtAPosition() {
        var list = OrderedList()
        for i in 0..<10 { list.append(i) }
        #expect(list.page(from: 7, limit: 5).map { list.id($0) } == [7, 8, 9])
        #expect(list.page(from: 10, limit: 5).isEmpty)
    }
}
