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
        #expect(h.rows("COMPLETE select /settings/my-i") == ["/settings/my-int"], "a setting ends the argument: no / to go into")
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
        #expect(h.rows("COMPLETE FAV 2 ") == ["on", "off"])
    }

    @Test func orderOffersMenuEntriesOnly() {
        let h = Harness()
        let offered = h.rows("COMPLETE ORDER ")
        #expect(offered.contains("margherita") && offered.contains("menu/"))
        #expect(!offered.contains { $0.hasPrefix("catalog") || $0.hasPrefix("items") || $0.hasPrefix("settings") }, "\(offered)")
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
        #expect(h.rows("COMPLETE WATCH /orders ") == ["FROM"])
        #expect(h.rows("COMPLETE HELP se") == ["SELECT", "SET"])
        #expect(h.rows("COMPLETE RM /orders extra ").isEmpty, "more words than the verb takes")
    }

    @Test func aHintShowsTheRestOfTheUsage() {
        #expect(VerbGrammar.hint("LS") == " [path] [LIMIT n] [AFTER name]")
        #expect(VerbGrammar.hint("LS ") == "[path] [LIMIT n] [AFTER name]")
        #expect(VerbGrammar.hint("LS /it") == "[LIMIT n] [AFTER name]")
        #expect(VerbGrammar.hint("LS /items ") == "[LIMIT n] [AFTER name]")
        #expect(VerbGrammar.hint("LS /items LIMIT ") == "n [AFTER name]")
        #expect(VerbGrammar.hint("select /settings/my-int ") == "option|#index")
        #expect(VerbGrammar.hint("SYNC 5 ") == "[TIMEOUT ms]")
        #expect(VerbGrammar.hint("PWD ") == "" && VerbGrammar.hint("NOPE ") == "")
    }
}
