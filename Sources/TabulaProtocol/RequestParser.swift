/// Turns one request line into a `Request`, or an error that says what was wrong.
public enum RequestParser {
    /// The longest LS page.
    public static let maxLimit = 10_000

    /// Parses a line (without its line ending). Returns nil for a blank line, which is ignored.
    /// On failure the tag, if one could be read, comes back with the error.
    public static func parse(_ line: ArraySlice<UInt8>) -> Result<Request, ParseFailure>? {
        // COMPLETE takes the rest of the line raw (it may hold an open quote), so look for it first.
        let (tag, rest) = splitTag(line)
        if let raw = rawComplete(rest) { return .success(Request(tag: tag, command: .complete(raw))) }
        // The common case: a line of plain words whose first is a verb. The verb is looked up
        // in the line's bytes, so no string is made for it; anything else (quotes, escapes,
        // an unknown verb and its suggestion) takes the general way below.
        if let (word, after) = Tokenizer.plainFirstWord(rest), let verb = Verb.named(bytes: word),
            let args = Tokenizer.plainWords(after)
        {
            let hash = tag == nil ? LineHash.fold(LineHash.basis, rest) : 0
            return parseRequest(verb: verb, args: args, tag: tag, lineHash: hash).mapError {
                ParseFailure(tag: tag, error: $0)
            }
        }
        var tokens: [String]
        switch Tokenizer.tokenize(rest) {
        case .failure(let e): return .failure(ParseFailure(tag: tag, error: e))
        case .success(let t): tokens = t
        }
        if tokens.isEmpty {
            if tag != nil {
                return .failure(
                    ParseFailure(
                        tag: tag, error: TabulaError(.syntax, "a tag must be followed by a verb, e.g. #t1 PING")))
            }
            return nil
        }
        // Handed on (not copied): the words are cut in place, never copied to a new array.
        let hash = tag == nil ? LineHash.fold(LineHash.basis, rest) : 0  // a tagged request is never cached
        switch parseRequest(tokens: consume tokens, tag: tag, lineHash: hash) {
        case .success(let r): return .success(r)
        case .failure(let e): return .failure(ParseFailure(tag: tag, error: e))
        }
    }

    /// Parses already-split words, the first the verb, a last `IF REV n` the condition.
    public static func parseRequest(tokens: consuming [String], tag: String? = nil, lineHash: UInt64 = 0) -> Result<
        Request, TabulaError
    > {
        var args = tokens
        guard !args.isEmpty else { return .failure(TabulaError(.syntax, "empty request")) }
        let word = args.count == 1 ? args.removeLast() : args.removeFirst()  // a lone verb: nothing to shift
        guard let verb = Verb.named(word) else { return .failure(unknownVerb(word, args)) }
        if let refusal = RequestGate.storedTextRefusal(verb, args) { return .failure(refusal) }
        return parseRequest(verb: verb, args: args, tag: tag, lineHash: lineHash)
    }

    /// Parses a verb's arguments, a last `IF REV n` the condition.
    static func parseRequest(verb: Verb, args: consuming [String], tag: String?, lineHash: UInt64) -> Result<
        Request, TabulaError
    > {
        var ifRev: UInt64?
        let n = args.count
        if n >= 3, args[n - 3].uppercased() == "IF", args[n - 2].uppercased() == "REV" {
            guard let rev = UInt64(args[n - 1]) else {
                return .failure(
                    TabulaError(
                        .syntax,
                        "IF REV takes a revision number, not '\(TabulaError.quoting(args[n - 1]))'; SHOW gives an entry's rev"
                    ))
            }
            ifRev = rev
            args.removeLast(3)
        }
        switch parse(verb, args: consume args) {
        case .failure(let e): return .failure(e)
        case .success(let c):
            if ifRev != nil && !c.isWrite {
                return .failure(
                    TabulaError(.syntax, "\(c.verb.rawValue) changes nothing, so it takes no IF REV; only a write does")
                )
            }
            return .success(Request(tag: tag, command: c, lineHash: lineHash, ifRev: ifRev))
        }
    }

    /// Parses a whole line held in an array.
    public static func parse(_ line: [UInt8]) -> Result<Request, ParseFailure>? { parse(line[...]) }

    /// A failed parse: the error and the tag to repeat, if any.
    public struct ParseFailure: Error, Equatable, Sendable {
        /// The tag read from the line, if any.
        public var tag: String?
        /// What was wrong.
        public var error: TabulaError
    }

    static func splitTag(_ line: ArraySlice<UInt8>) -> (String?, ArraySlice<UInt8>) {
        var i = line.startIndex
        while i < line.endIndex && (line[i] == 32 || line[i] == 9) { i += 1 }
        guard i < line.endIndex, line[i] == UInt8(ascii: "#") else { return (nil, line[i...]) }
        var j = i + 1
        while j < line.endIndex && isTagByte(line[j]) { j += 1 }
        guard j > i + 1, j - i <= 65, j == line.endIndex || line[j] == 32 || line[j] == 9 else {
            return (nil, line[i...])
        }
        return (String(decoding: line[(i + 1)..<j], as: UTF8.self), line[j...])
    }

    static func isTagByte(_ b: UInt8) -> Bool {
        (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 45 || b == 95 || b == 46
            || b == 58
    }

    private static let completeWord = Array("COMPLETE".utf8)

    /// The text after `COMPLETE ` if the line starts with that verb.
    static func rawComplete(_ line: ArraySlice<UInt8>) -> String? {
        var i = line.startIndex
        while i < line.endIndex && (line[i] == 32 || line[i] == 9) { i += 1 }
        let word = completeWord
        var k = 0
        while k < word.count {
            guard i + k < line.endIndex, line[i + k] & 0xDF == word[k] else { return nil }
            k += 1
        }
        let after = i + k
        if after == line.endIndex { return "" }
        guard line[after] == 32 || line[after] == 9 else { return nil }
        return String(validating: line[(after + 1)...], as: UTF8.self)
    }

    /// Why `word` is no verb, with the verb it was likely meant to be.
    static func unknownVerb(_ word: String, _ args: [String]) -> TabulaError {
        let quoted = TabulaError.quoting(word)
        // An HTTP request line (a browser or curl pointed at this port).
        if ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"].contains(word),
            args.last?.hasPrefix("HTTP/") == true
        {
            return TabulaError(
                .unknown,
                "this port speaks Tabula's line protocol, not HTTP; the web view and /api are on the port tabulad's --http gives"
            )
        }
        if let s = Verb.suggestion(for: word) {
            return TabulaError(.unknown, "unknown verb '\(quoted)'; did you mean \(s.rawValue)? (HELP lists all verbs)")
        }
        return TabulaError(.unknown, "unknown verb '\(quoted)'; HELP lists all verbs")
    }

    /// Parses a verb's arguments (after any `IF REV`).
    static func parse(_ verb: Verb, args: consuming [String]) -> Result<Command, TabulaError> {
        guard verb.arity.contains(args.count) else {
            let n = args.count
            let what = n < verb.arity.lowerBound ? "too few arguments" : "too many arguments"
            return .failure(TabulaError(.syntax, "\(what) for \(verb.rawValue) (got \(n)); usage: \(verb.usage)"))
        }
        do {
            return .success(try build(verb, args))
        } catch let e as TabulaError {
            return .failure(e)
        } catch {
            return .failure(TabulaError(.syntax, "\(error)"))
        }
    }

    static func build(_ verb: Verb, _ a: [String]) throws -> Command {
        switch verb {
        case .help: return .help(verb: a.first)
        case .ping: return .ping(a.first)
        case .quit: return .quit
        case .pwd: return .pwd
        case .stats: return .stats
        case .clients: return .clients
        case .whoami: return .whoami
        case .multi: return .multi
        case .exec: return .exec
        case .discard: return .discard
        case .auth: return .auth(name: a[0], secret: a[1])
        case .sync: return try parseSync(a)
        case .show: return .show(path: a.first)
        case .cd: return .cd(path: a.first)
        case .ls: return try parseLs(a)
        case .select: return try parseSelect(a)
        case .add: return .add(path: a[0], args: Array(a.dropFirst()))
        case .set: return try parseSet(a)
        case .rm: return .rm(path: a[0])
        case .mv:
            guard let n = Int(a[1]), n >= 1 else {
                throw TabulaError(.syntax, "bad position '\(a[1])'; positions are whole numbers from 1")
            }
            return .mv(path: a[0], position: n)
        case .fav:
            guard a.count == 2 else { return .fav(path: a[0], action: .toggle) }
            guard let act = FavAction(rawValue: a[1].lowercased()), act != .toggle else {
                throw TabulaError(.syntax, "FAV takes on or off, not '\(a[1])'; leave it out to toggle")
            }
            return .fav(path: a[0], action: act)
        case .filter:
            guard let w = a.first else { return .filter(nil) }
            switch w.lowercased() {
            case "favorites", "favourites", "fav": return .filter(.favorites)
            case "all": return .filter(.all)
            default: throw TabulaError(.syntax, "FILTER takes favorites or all, not '\(w)'")
            }
        case .bands: return .bands(a)
        case .order: return .order(path: a[0])
        case .watch: return try parseWatch(a)
        case .unwatch: return .unwatch(prefix: a.first)
        case .format:
            guard let w = a.first else { return .format(nil) }
            guard let f = LineFormat(rawValue: w.lowercased()) else {
                throw TabulaError(.syntax, "FORMAT takes text or json, not '\(w)'")
            }
            return .format(f)
        case .complete: return .complete(a.joined(separator: " "))
        }
    }

    static func parseSelect(_ a: [String]) throws -> Command {
        let word = a[1].utf8
        if word.first == UInt8(ascii: "#"), word.count > 1 {
            guard let n = positive(a[1], after: 1) ?? Int(a[1].dropFirst()), n >= 1 else {
                throw TabulaError(.syntax, "bad option index '\(a[1])'; write #1 for the first option")
            }
            return .select(path: a[0], option: .index(n))
        }
        return .select(path: a[0], option: .value(a[1]))
    }

    /// The number `word` writes after its first `skip` bytes in at most 18 ASCII digits and
    /// nothing else, read from its bytes (nil for anything else, which `Int` then reads).
    static func positive(_ word: String, after skip: Int) -> Int? {
        var word = word
        return word.withUTF8 { u -> Int? in
            guard u.count > skip, u.count - skip <= 18 else { return nil }
            var n = 0
            for d in u[skip...] {
                guard d >= UInt8(ascii: "0") && d <= UInt8(ascii: "9") else { return nil }
                n = n * 10 + Int(d - UInt8(ascii: "0"))
            }
            return n
        }
    }

    static func parseSet(_ a: [String]) throws -> Command {
        var fields: [FieldAssignment] = []
        for f in a.dropFirst() {
            guard let eq = f.firstIndex(of: "="), eq != f.startIndex else {
                throw TabulaError(.syntax, "'\(f)' is not field=value; e.g. SET /items/3 name=\"Red Chair\" value=42")
            }
            fields.append(FieldAssignment(f[..<eq].lowercased(), String(f[f.index(after: eq)...])))
        }
        return .set(path: a[0], fields: fields)
    }

    /// The longest `SYNC` wait, and the default.
    public static let maxSyncTimeout = 60_000
    public static let defaultSyncTimeout = 5_000

    static func parseSync(_ a: [String]) throws -> Command {
        guard let rev = UInt64(a[0]) else {
            throw TabulaError(.syntax, "SYNC takes a revision number, e.g. SYNC 120 (the rev= of a write's reply)")
        }
        guard a.count > 1 else { return .sync(rev: rev, timeout: defaultSyncTimeout) }
        guard a.count == 3, a[1].uppercased() == "TIMEOUT", let ms = Int(a[2]), (0...maxSyncTimeout).contains(ms) else {
            throw TabulaError(.syntax, "usage: \(Verb.sync.usage), with ms from 0 to \(maxSyncTimeout)")
        }
        return .sync(rev: rev, timeout: ms)
    }

    static func parseWatch(_ a: [String]) throws -> Command {
        var prefix: String?
        var from: UInt64?
        var snapshot = false, progress = false
        var i = 0
        while i < a.count {
            if a[i].uppercased() == "SNAPSHOT" && !snapshot && !progress {
                snapshot = true
                i += 1
            } else if a[i].uppercased() == "PROGRESS" && !progress {
                progress = true
                i += 1
            } else if a[i].uppercased() == "FROM" {
                guard i + 1 < a.count, let r = UInt64(a[i + 1]) else {
                    throw TabulaError(.syntax, "FROM takes a revision number, e.g. WATCH /items FROM 120")
                }
                from = r
                i += 2
            } else if prefix == nil && i == 0 {
                prefix = a[i]
                i += 1
            } else {
                throw TabulaError(.syntax, "unexpected '\(a[i])'; usage: \(Verb.watch.usage)")
            }
        }
        return .watch(prefix: prefix, from: from, snapshot: snapshot, progress: progress)
    }

    static func parseLs(_ a: [String]) throws -> Command {
        var path: String?
        var limit: Int?
        var after: String?
        var i = 0
        while i < a.count {
            switch a[i].uppercased() {
            case "LIMIT":
                guard i + 1 < a.count, let n = Int(a[i + 1]), n >= 1, n <= maxLimit else {
                    throw TabulaError(.syntax, "LIMIT takes a number from 1 to \(maxLimit)")
                }
                limit = n
                i += 2
            case "AFTER":
                guard i + 1 < a.count else {
                    throw TabulaError(.syntax, "AFTER takes the name of the last row of the previous page")
                }
                after = a[i + 1]
                i += 2
            default:
                guard path == nil, i == 0 else {
                    throw TabulaError(.syntax, "unexpected '\(a[i])'; usage: \(Verb.ls.usage)")
                }
                path = a[i]
                i += 1
            }
        }
        return .ls(path: path, limit: limit, after: after)
    }
}
