import Testing
import TabulaProtocol

@testable import TabulaModel

/// A numbered list's entry path written digit by digit (`ModelPath.numbered`) is the path an
/// interpolation makes, for every kind of number.
@Suite struct NumberedPathTests {
    @Test func aNumberedPathSpellsTheListASlashAndTheNumberAsInterpolationDoes() {
        var rng = SplitMix64(seed: 59)
        var numbers = [0, 1, 9, 10, 99, 100, 999_999_999, 1_000_000_000, -1, -10, Int.max, Int.min]
        for k in 0..<2_000 {
            let n = Int(truncatingIfNeeded: rng.next() >> (rng.next() % 64))  // every length of number
            numbers.append(k % 4 == 0 ? -n : n)
        }
        var wrong: [Int] = []
        for n in numbers {
            if ModelPath.numbered("/items", n) != "/items/\(n)" || ModelPath.numbered("/orders", n) != "/orders/\(n)" {
                wrong.append(n)
            }
        }
        let allSpelledAlike = wrong.isEmpty
        #expect(allSpelledAlike, "spelled otherwise for \(wrong.count) numbers, first \(wrong.prefix(5))")
    }
}
