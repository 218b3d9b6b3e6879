import Testing
import TabulaProtocol

func parse(_ s: String) -> Result<Request, RequestParser.ParseFailure>? {
    RequestParser.parse(Array(s.utf8))
}

func command(_ s: String) -> Command? {
    if case .success(let r)? = parse(s) { return r.command }
    return nil
}

func failure(_ s: String) -> TabulaError? {
    if case .failure(let f)? = parse(s) { return f.error }
    return nil
}

@Suite struct TokenizerTests {
    @Test func splitsOnSpacesAndTabs() throws {
        #expect(try Tokenizer.tokenize(Array("a  b\tc".utf8)).get() == ["a", "b", "c"])
    }
    @Test func doubleQuotesTakeBackslashEscapes() throws {
        #expect(
            try Tokenizer.tokenize(Array(#"ADD "Red \"Big\" Chair\n" 42"#.utf8)).get() == [
                "ADD", "Red \"Big\" Chair\n", "42",
            ])
    }
    @Test func singleQuotesAreLiteral() throws {
        #expect(try Tokenizer.tokenize(Array(#"x 'a \n b'"#.utf8)).get() == ["x", #"a \n b"#])
    }
    @Test func quotesJoinWithAdjacentText() throws {
        #expect(try Tokenizer.tokenize(Array(#"name="My Item""#.utf8)).get() == ["name=My Item"])
    }
    @Test func emptyQuotesGiveAnEmptyArgument() throws {
        #expect(try Tokenizer.tokenize(Array(#"a "" b"#.utf8)).get() == ["a", "", "b"])
    }
    @Test func unicodeEscapesDecode() throws {
        #expect(try Tokenizer.tokenize(Array(#""caf\u00e9""#.utf8)).get() == ["café"])
    }
    @Test func unterminatedQuoteIsASyntaxError() throws {
        #expect(failure("ADD \"open")?.code == .syntax)
        #expect(failure("ADD 'open")?.code == .syntax)
    }
    @Test func unknownEscapeIsASyntaxErrorNamingIt() throws {
        let e = failure(#"ADD "a\qb""#)
        #expect(e?.code == .syntax)
        #expect(e?.message.contains("\\q") == true)
    }
    @Test func invalidUTF8IsAnEncodingError() throws {
        if case .failure(let f)? = RequestParser.parse([0x50, 0xff, 0xfe]) {
            #expect(f.error.code == .encoding)
        } else {
            Issue.record("expected failure")
        }
    }
    @Test func nulAndControlBytesAreEncodingErrors() throws {
        if case .failure(let f)? = RequestParser.parse([0x50, 0, 0x41]) {
            #expect(f.error.code == .encoding)
        } else {
            Issue.record("expected failure")
        }
        if case .failure(let f)? = RequestParser.parse([0x50, 0x1b, 0x41]) {
            #expect(f.error.code == .encoding)
        } else {
            Issue.record("expected failure")
        }
    }
    @Test func quotingRoundTripsThroughTheTokenizer() throws {
        for s in ["plain", "two words", "quote\"inside", "back\\slash", "tab\tand\nnewline", "", "#hash", "it's"] {
            let q = Quoting.quote(s)
            #expect(try Tokenizer.tokenize(Array(q.utf8)).get() == [s], "\(s) → \(q)")
        }
    }
}

@Suite struct RequestParserTests {
    @Test func blankLinesAreIgnored() throws {
        #expect(parse("") == nil)
        #expect(parse("   \t") == nil)
    }
    @Test func verbsAreCaseInsensitive() throws {
        #expect(command("ping") == .ping(nil))
        #expect(command("Ls /items") == .ls(path: "/items", limit: nil, after: nil))
    }
    @Test func aTagIsReadAndKept() throws {
        guard case .success(let r)? = parse("#t1 PWD") else { Issue.record("no parse"); return }
        #expect(r.tag == "t1")
        #expect(r.command == .pwd)
    }
    @Test func aTagIsKeptOnFailure() throws {
        guard case .failure(let f)? = parse("#a7 NOPE") else { Issue.record("should fail"); return }
        #expect(f.tag == "a7")
        #expect(f.error.code == .unknown)
    }
    @Test func unknownVerbSuggestsTheNearestOne() throws {
        let e = failure("SELCT my-int 16")
        #expect(e?.code == .unknown)
        #expect(e?.message.contains("did you mean SELECT?") == true)
    }
    @Test func aSwapOfTwoLettersCountsAsOneEdit() throws {
        #expect(EditDistance.between("itmes", "items") == 1)
        #expect(EditDistance.between("kitten", "sitting") == 3)
        #expect(EditDistance.closest(to: "itmes", in: ["settings", "items", "menu"]) == "items")
        #expect(failure("SEELCT a b")?.message.contains("did you mean SELECT?") == true)
    }

    @Test func aVerbsBeginningSuggestsThatVerb() throws {
        #expect(failure("sel /settings/my-int 16")?.message.contains("did you mean SELECT?") == true)
        #expect(failure("sele x")?.message.contains("did you mean SELECT?") == true)
    }

    @Test func aHugeUnknownVerbIsQuotedCutAndGetsNoSuggestion() throws {
        let word = String(repeating: "Q", count: 65_000)
        let e = try #require(failure(word))
        #expect(e.code == .unknown)
        #expect(e.message.utf8.count < 300, "\(e.message.utf8.count) bytes")
        #expect(e.message.contains("65000 bytes, cut") && !e.message.contains("did you mean"))
    }

    @Test func anErrorMessageKeepsItsHeadAndTailAndSaysWhatItCut() {
        let long = "no /" + String(repeating: "a", count: 5_000) + "; LS / lists what is there"
        let m = TabulaError(.notFound, long).message
        #expect(m.utf8.count <= TabulaError.longestMessage + 40)
        #expect(m.hasPrefix("no /aaa") && m.hasSuffix("LS / lists what is there") && m.contains("bytes cut"))
    }

    @Test func unknownVerbFarFromAnyHasNoSuggestion() throws {
        #expect(failure("XYZZYQ")?.message.contains("did you mean") == false)
    }
    @Test func wrongArityNamesTheUsage() throws {
        let e = failure("SELECT my-int")
        #expect(e?.code == .syntax)
        #expect(e?.message.contains("usage: SELECT setting option|#index") == true)
        #expect(failure("PWD extra")?.code == .syntax)
    }
    @Test func lsTakesLimitAndAfterInAnyOrder() throws {
        #expect(command("LS /items LIMIT 50 AFTER 17") == .ls(path: "/items", limit: 50, after: "17"))
        #expect(command("LS AFTER 3 LIMIT 2") == .ls(path: nil, limit: 2, after: "3"))
    }
    @Test func badNumbersAreSyntaxErrors() throws {
        #expect(failure("LS /items LIMIT lots")?.code == .syntax)
        #expect(failure("MV /items/1 first")?.code == .syntax)
        #expect(failure("WATCH / FROM yesterday")?.code == .syntax)
        #expect(failure("SELECT my-int #0")?.code == .syntax)
    }
    @Test func selectTakesAValueOrAnIndex() throws {
        #expect(command("SELECT my-int 16") == .select(path: "my-int", option: .value("16")))
        #expect(command("SELECT my-int #2") == .select(path: "my-int", option: .index(2)))
    }
    @Test func optionIndexesReadAsTheGenericIntegerParserReadsThem() throws {
        #expect(
            command("SELECT s #007") == .select(path: "s", option: .index(7))
                && command("SELECT s #+3") == .select(path: "s", option: .index(3)))
        #expect(command("SELECT s #0000000000000000000000012") == .select(path: "s", option: .index(12)))
        #expect(
            failure("SELECT s #-1")?.code == .syntax && failure("SELECT s #1x")?.code == .syntax
                && failure("SELECT s #99999999999999999999")?.code == .syntax)
        #expect(command("SELECT s #") == .select(path: "s", option: .value("#")))
    }
    @Test func everyVerbIsFoundByItsNameInAnyCaseAndNothingElseIs() throws {
        for v in Verb.allCases {
            #expect(Verb.named(v.rawValue) == v && Verb.named(v.rawValue.lowercased()) == v)
        }
        #expect(
            Verb.named("PIN") == nil && Verb.named("PINGS") == nil && Verb.named("") == nil
                && Verb.named("COMPLETED") == nil && Verb.named("é") == nil)
    }
    @Test func setTakesFieldAssignments() throws {
        #expect(
            command(#"SET /items/3 name="Red Chair" VALUE=42"#)
                == .set(
                    path: "/items/3", fields: [FieldAssignment("name", "Red Chair"), FieldAssignment("value", "42")]))
        #expect(failure("SET /items/3 name")?.code == .syntax)
    }
    @Test func favTogglesOrSets() throws {
        #expect(command("FAV 3") == .fav(path: "3", action: .toggle))
        #expect(command("FAV 3 ON") == .fav(path: "3", action: .on))
        #expect(failure("FAV 3 maybe")?.code == .syntax)
    }
    @Test func watchTakesAPrefixAndFrom() throws {
        #expect(command("WATCH") == .watch(prefix: nil, from: nil))
        #expect(command("WATCH /items FROM 12") == .watch(prefix: "/items", from: 12))
        #expect(command("WATCH FROM 0") == .watch(prefix: nil, from: 0))
    }
    @Test func completeTakesTheRestOfTheLineRaw() throws {
        #expect(command("COMPLETE sel") == .complete("sel"))
        #expect(command("COMPLETE ls /it") == .complete("ls /it"))
        #expect(command("COMPLETE ADD \"open") == .complete("ADD \"open"))
        #expect(command("COMPLETE SELECT my-int ") == .complete("SELECT my-int "))
    }
    @Test func formatAndFilterTakeKeywords() throws {
        #expect(command("FORMAT json") == .format(.json))
        #expect(command("FILTER favourites") == .filter(.favorites))
        #expect(failure("FORMAT xml")?.code == .syntax)
    }
    @Test func onlyChangingVerbsAreWrites() throws {
        #expect(command("SELECT a b")?.isWrite == true)
        #expect(command("BANDS")?.isWrite == false)
        #expect(command("BANDS a 5 b")?.isWrite == true)
        #expect(command("LS")?.isWrite == false)
    }
}

@Suite("SYNC requests")
struct SyncParsingTests {
    @Test("SYNC takes a revision and an optional TIMEOUT in milliseconds up to a minute")
    func parsesSync() {
        #expect(command("SYNC 42") == .sync(rev: 42, timeout: 5_000))
        #expect(command("sync 42 timeout 0") == .sync(rev: 42, timeout: 0))
        for bad in ["SYNC x", "SYNC 1 TIMEOUT", "SYNC 1 TIMEOUT 60001", "SYNC 1 WAIT 5", "SYNC -1"] {
            guard case .failure(let f)? = parse(bad) else { Issue.record("\(bad) parsed"); continue }
            #expect(f.error.code == .syntax)
        }
    }

    @Test("the reply of a change names its revision: rev=N in text, a rev field in JSON")
    func repliesCarryRevisions() {
        var r = Reply(message: "My Int: 64")
        r.rev = 57
        #expect(
            String(decoding: WireEncoder.encode(r, tag: nil, format: .text), as: UTF8.self) == "OK My Int: 64 rev=57\n")
        #expect(String(decoding: WireEncoder.encode(r, tag: "t", format: .json), as: UTF8.self).contains(#""rev":57"#))
        #expect(
            String(decoding: WireEncoder.encode(Reply(message: "x"), tag: nil, format: .text), as: UTF8.self)
                == "OK x\n")
    }
}

@Suite struct HTTPOnTheLinePortTests {
    @Test func anHTTPRequestLineIsToldThisPortIsNotHTTPInsteadOfADidYouMean() {
        for line in ["GET / HTTP/1.1", "POST /api/select HTTP/1.1", "HEAD /events?prefix=/ HTTP/1.0"] {
            let e = failure(line)
            #expect(e?.code == .unknown, "\(line)")
            #expect(e?.message.contains("not HTTP") == true && e?.message.contains("did you mean") == false, "\(line)")
        }
        #expect(failure("SETT /items/1 name=x")?.message.contains("did you mean SET") == true)
    }
}
