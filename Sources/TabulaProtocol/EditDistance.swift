/// Levenshtein distance, for "did you mean" suggestions.
public enum EditDistance {
    /// The number of single-character edits (insert, delete, replace, or swap of two
    /// neighbours, the commonest typo) that turn `a` into `b`.
    public static func between(_ a: String, _ b: String) -> Int {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var before = [Int](repeating: 0, count: y.count + 1)
        var prev = Array(0...y.count)
        var cur = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            cur[0] = i
            for j in 1...y.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { cur[j] = min(cur[j], before[j - 2] + 1) }
            }
            (before, prev, cur) = (prev, cur, before)
        }
        return prev[y.count]
    }

    /// The candidate closest to `word`, if it is close enough to be a likely typo.
    /// Cost bounds: a word longer than `longestWord` gets no suggestion (typos are short),
    /// at most `mostCandidates` candidates are looked at, and one whose length alone puts it
    /// out of reach is not compared. A suggestion then costs at most
    /// 64 × (64 + 21) × 1,000 steps, whatever the request.
    public static let longestWord = 64
    /// See `longestWord`.
    public static let mostCandidates = 1_000

    /// The candidate closest to `word`, if it is close enough to be a likely typo (within a
    /// third of its length), or starts with it.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let lower = word.lowercased()
        let length = lower.unicodeScalars.count
        guard length <= longestWord else { return nil }
        let reach = max(1, length / 3)
        var best: (String, Int)?
        for c in candidates.prefix(mostCandidates) {
            let other = c.lowercased()
            if other.hasPrefix(lower) { return c }
            guard abs(other.unicodeScalars.count - length) <= reach else { continue }
            let d = between(lower, other)
            if let b = best, b.1 <= d { continue }
            best = (c, d)
        }
        guard let (c, d) = best, d <= reach else { return nil }
        return c
    }
}
