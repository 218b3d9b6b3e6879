/// Reading a partial request against its verb's declared arguments: what may come next (for
/// completion) and what is left to type (for hints). Pure: no model, no I/O.
public enum VerbGrammar {
    /// Something the next word may be.
    public enum Expected: Sendable, Equatable {
        /// A value of this argument.
        case value(Argument)
        /// This keyword (`LIMIT`), which a value then follows.
        case keyword(String)
    }

    /// Where `words` (the arguments typed, the verb left out) leave the verb's arguments.
    struct Position {
        /// The index of the first argument not yet given.
        var next = 0
        /// A keyword was typed last: its argument's value comes next.
        var keywordValue: Int?
        /// The values given, by argument name (a repeated one's first).
        var given: [String: String] = [:]
        /// The words do not fit the verb (too many, or a word where only keywords may come).
        var invalid = false
    }

    static func position(_ spec: VerbSpec, after words: [String]) -> Position {
        var p = Position()
        let args = spec.arguments
        var i = 0
        while i < words.count {
            guard p.next < args.count else {
                p.invalid = true
                return p
            }
            let a = args[p.next]
            if let at = args[p.next...].firstIndex(where: { $0.keyword.map { starts(words, at: i, with: $0) } ?? false }
            ) {
                // A keyword (of one word, LIMIT, or two, IF REV): skips the optional arguments before it.
                let width = args[at].width - 1
                if args[at].kind == .flag {
                    p.given[args[at].name] = words[i]
                    i += args[at].width
                    p.next = at + 1
                    continue
                }
                if i + width >= words.count {
                    p.keywordValue = at
                    p.next = at
                    return p
                }
                p.given[args[at].name] = words[i + width]
                i += width + 1
                p.next = at + 1
                continue
            }
            if a.keyword != nil {
                p.invalid = true
                return p
            }
            p.given[a.name] = p.given[a.name] ?? words[i]
            i += 1
            if !a.repeated { p.next += 1 }
        }
        return p
    }

    /// Whether `words` from `i` spell `keyword` (its words, any case); the last of them only
    /// begun when the words end there (`IF` typed of `IF REV`).
    static func starts(_ words: [String], at i: Int, with keyword: String) -> Bool {
        let parts = keyword.split(separator: " ")
        for (k, part) in parts.enumerated() {
            guard i + k < words.count else { return k > 0 }
            guard words[i + k].uppercased() == part else { return false }
        }
        return true
    }

    /// What the word after `words` may be, and the values given so far by argument name.
    public static func expected(_ spec: VerbSpec, after words: [String]) -> ([Expected], [String: String]) {
        let p = position(spec, after: words)
        if p.invalid { return ([], p.given) }
        if let k = p.keywordValue { return ([.value(spec.arguments[k])], p.given) }
        var out: [Expected] = []
        for a in spec.arguments[p.next...] {
            if let kw = a.keyword {
                out.append(.keyword(kw))
                continue
            }
            out.append(.value(a))
            if !a.optional { break }
        }
        return (out, p.given)
    }

    /// The rest of the verb's usage after what `line` has typed (a hint shown dimmed after
    /// the cursor): `LS /items ` → `[LIMIT n] [AFTER name]`; empty when nothing is left, the
    /// verb is unknown or the words do not fit it.
    public static func hint(_ line: String) -> String {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let first = words.first, let verb = Verb.named(first) else { return "" }
        let args = verb.spec.arguments
        let endsWord = line.hasSuffix(" ")
        if words.count == 1 && !endsWord { return args.isEmpty ? "" : " " + args.map(\.usage).joined(separator: " ") }
        // Read the finished words; the one being typed belongs to the next argument.
        let p = position(verb.spec, after: Array(words.dropFirst().dropLast(endsWord ? 0 : 1)))
        guard !p.invalid else { return "" }
        var rest: [String]
        if let k = p.keywordValue {
            rest = [args[k].name] + args[(k + 1)...].map(\.usage)
        } else {
            rest = args[p.next...].map(\.usage)
        }
        if !endsWord && !rest.isEmpty { rest.removeFirst() }  // that one is being typed
        return rest.joined(separator: " ")
    }
}
