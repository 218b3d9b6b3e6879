import Testing
import TabulaModel
import TabulaProtocol

/// Completion from the verb table: each argument position offers only what the verb takes
/// there, so a completed line is one the server accepts.
@Suite struct CompletionGrammarTests {
    @Test func selectOffersSettingsThenTheSettingsOptionsInTheirOwnOrder() {
        let h = Harness()
        #expect(h.rows("COMPLETE SELECT ") == ["settings/"])
        #expect(h.rows("COMPLETE select /se") == ["/settings/"])
        #expect(
            h.rows("COMPLETE select /settings/my-i") == ["/settings/my-int"],
            "a setting ends the argument: no / to go into")
        #expect(h.rows("COMPLETE select /settings/my-int ") == ["8", "16", "32", "64", "#1", "#2", "#3", "#4"])
        #expect(h.ok("SELECT /settings/my-int 32"), "the completed line is accepted")
    }

    @Test func setOffersTheFieldsOfWhatItChanges() {
        let h = Harness()
        #expect(h.rows("COMPLETE SET /items/1 ") == ["name=", "value="])
        #expect(h.rows("COMPLETE SET /items/1 name=x ") == ["name=", "value="], "field=value repeats")
        #expect(h.rows("COMPLETE SET /settings/my-int ") == ["title="])
        #expect(h.rows("COMPLETE SET /catalog/item-3 ") == ["title=", "text="])
        #expect(h.rows("COMPLETE SET /menu/pizza/margherita ") == ["title="])
    }

    @Test func favAndMvOfferItemsNotSections() {
        let h = Harness()
        #expect(h.ok("CD /items"))
        #expect(h.rows("COMPLETE FAV ") == ["1", "2", "3", "4"])
        #expect(h.rows("COMPLETE MV ") == ["1", "2", "3", "4"])
        #expect(h.rows("COMPLETE FAV 2 ") == ["on", "off", "IF REV"])
        #expect(h.rows("COMPLETE FAV 2 on ") == ["IF REV"], "the condition comes last")
    }

    @Test func orderOffersMenuEntriesOnly() {
        let h = Harness()
        let offered = h.rows("COMPLETE ORDER ")
        #expect(offered.contains("margherita") && offered.contains("menu/"))
        #expect(
            !offered.contains { $0.hasPrefix("catalog") || $0.hasPrefix("items") || $0.hasPrefix("settings") },
            "\(offered)")
        #expect(h.rows("COMPLETE ORDER /menu/pizza/m") == ["/menu/pizza/margherita"])
    }

    @Test func filterOffersFavoritesOnlyWhileThereIsOne() {
        let h = Harness()
        #expect(h.rows("COMPLETE FILTER ") == ["favorites", "all"])
        #expect(h.ok("FAV /items/2 off"))
        #expect(h.rows("COMPLETE FILTER ") == ["all"])
    }

    @Test func keywordsAndTheirValuesComeInTheirPlaces() {
        let h = Harness()
        #expect(h.rows("COMPLETE LS /items ") == ["LIMIT", "AFTER"])
        #expect(h.rows("COMPLETE LS /items AFTER ") == ["1", "2", "3", "4"])
        #expect(h.rows("COMPLETE LS /items LIMIT 2 ") == ["AFTER"])
        #expect(h.rows("COMPLETE WATCH /orders ") == ["FROM", "SNAPSHOT", "PROGRESS"])
        #expect(h.rows("COMPLETE WATCH /orders FROM 3 ") == ["SNAPSHOT", "PROGRESS"])
        #expect(h.rows("COMPLETE WATCH /orders SNAPSHOT ") == ["PROGRESS"], "SNAPSHOT takes no value")
        #expect(h.rows("COMPLETE WATCH /orders SNAPSHOT PROGRESS ").isEmpty, "PROGRESS is last")
        #expect(h.rows("COMPLETE HELP se") == ["SELECT", "SET"])
        #expect(h.rows("COMPLETE RM /orders extra ").isEmpty, "more words than the verb takes")
    }

    @Test func aHintShowsTheRestOfTheUsage() {
        #expect(VerbGrammar.hint("LS") == " [path] [LIMIT n] [AFTER name]")
        #expect(VerbGrammar.hint("LS ") == "[path] [LIMIT n] [AFTER name]")
        #expect(VerbGrammar.hint("LS /it") == "[LIMIT n] [AFTER name]")
        #expect(VerbGrammar.hint("LS /items ") == "[LIMIT n] [AFTER name]")
        #expect(VerbGrammar.hint("LS /items LIMIT ") == "n [AFTER name]")
        #expect(VerbGrammar.hint("select /settings/my-int ") == "option|#index [IF REV n]")
        #expect(VerbGrammar.hint("select /settings/my-int #2 IF REV ") == "n")
        #expect(VerbGrammar.hint("select /settings/my-int #2 IF ") == "n", "IF begins the two-word keyword")
        #expect(VerbGrammar.hint("SYNC 5 ") == "[TIMEOUT ms]")
        #expect(VerbGrammar.hint("PWD ") == "" && VerbGrammar.hint("NOPE ") == "")
    }
}

/// Following completion from the verb alone, always taking the first candidate, ends in a line
/// the model accepts for every verb it runs (no usage error on the way).
@Suite struct CompletionPathTests {
    @Test(arguments: [Verb.ls, .show, .cd, .select, .set, .rm, .mv, .fav, .filter, .order, .help, .format, .bands])
    func takingTheFirstCandidateAtEveryPositionEndsInAnAcceptedLine(_ verb: Verb) {
        let h = Harness()
        var done = [verb.rawValue]
        var partial = ""
        for _ in 0..<12 {
            guard let first = h.rows("COMPLETE \((done + [partial]).joined(separator: " "))").first else {
                if partial.isEmpty {
                    // Numbers are not completed: give one where a required number comes.
                    let (next, _) = VerbGrammar.expected(verb.spec, after: Array(done.dropFirst()))
                    guard
                        next.contains(where: {
                            if case .value(let a) = $0 { return a.kind == .number && !a.optional }; return false
                        })
                    else { break }
                    done.append("1")
                    continue
                }
                done.append(partial)  // the list itself is the argument (SET of a setting)
                partial = ""
                continue
            }
            if first.hasSuffix("/") {  // a list on the way: go into it
                partial = first
                continue
            }
            // An optional keyword would need a value completion cannot give (a number): stop.
            if verb != .help, first.allSatisfy({ $0.isUppercase || $0 == " " }) { break }  // LIMIT, IF REV
            done.append(first.hasSuffix("=") ? first + "x" : first)
            partial = ""
        }
        if !partial.isEmpty { done.append(partial) }
        let line = done.joined(separator: " ")
        let error = h.run(line).reply.error
        #expect(error?.code != .syntax && error?.code != .unknown, "\(line) → \(error.map { "\($0)" } ?? "OK")")
    }
}

@Suite struct CompletionOfLongListsTests {
    @Test func aListOfThreeHundredChildrenCompletesWhatIsTypedAmongAllOfThem() {
        let h = Harness()
        #expect(h.ok("ADD /catalog X"))
        for i in 0..<300 { #expect(h.ok("ADD /catalog/x n\(i)")) }
        let got = h.rows("COMPLETE SHOW /catalog/x/n29")
        #expect(got == ["/catalog/x/n29/"] + (0...9).map { "/catalog/x/n29\($0)/" }, "\(got)")
    }
}
