import Testing
import TabulaModel
import TabulaProtocol

@Suite struct ModelTests {
    @Test func everySuccessfulChangeBumpsTheRevisionByOne() {
        let h = Harness()
        #expect(h.ok("SELECT /settings/my-int 8"))
        #expect(h.ok("ADD /items"))
        #expect(h.error("SELECT /settings/my-int 9") != nil)
        #expect(h.ok("LS /items"))
        #expect(h.model.revision == 2)
        #expect(h.run("ORDER pesto").event?.rev == 3)
    }

    @Test func readsChangeNothing() {
        let h = Harness()
        for line in ["LS", "LS /items", "SHOW /items/1", "PWD", "CD /menu", "FILTER", "BANDS", "COMPLETE LS /"] {
            #expect(h.run(line).event == nil)
        }
        #expect(h.model.revision == 0)
    }

    @Test func theRootListsTheFiveStores() {
        let h = Harness()
        #expect(
            h.rows("LS /").map { String($0.prefix { $0 != "/" }) } == [
                "settings", "catalog", "items", "menu", "orders",
            ])
    }

    @Test func pathsResolveRelativeToTheCurrentPathWithDotAndDotDot() {
        let h = Harness()
        #expect(h.ok("CD settings"))
        #expect(h.ok("SHOW my-int"))
        #expect(h.ok("SHOW ../items/1"))
        #expect(h.ok("SHOW ./my-int/16"))
        #expect(h.run("CD ../../../menu/").reply.message == "/menu")
        #expect(h.run("CD").reply.message == "/")
    }

    @Test func cdIntoALeafIsRefused() {
        let h = Harness()
        #expect(h.error("CD /items/1") == .invalid)
    }

    @Test func theTopLevelListsCannotBeRemoved() {
        let h = Harness()
        #expect(h.error("RM /items") == .invalid)
        #expect(h.error("RM /") == .invalid)
    }

    @Test func mutationsRebuildTheSameModel() {
        let h = Harness()
        for line in [
            "ADD /items A 5", "MV /items/5 1", "FAV /items/5", "BANDS a 10 b", "SELECT /settings/my-int 64",
            "ADD /catalog/item-1 Z text hello", "ORDER pesto",
        ] {
            #expect(h.ok(line))
        }
        let copy = Model(snapshot: h.model.snapshot)
        let a = Harness(h.model), b = Harness(copy)
        for line in ["LS /items", "LS /settings", "LS /catalog/item-1", "LS /orders", "LS /menu"] {
            #expect(a.rows(line) == b.rows(line), "\(line)")
        }
        #expect(copy.revision == h.model.revision)
    }

    /// A client at `/catalog/item-2/item-2.1` when another removes `/catalog/item-2`.
    static func inARemovedBranch() -> Harness {
        let h = Harness()
        #expect(h.ok("CD /catalog/item-2/item-2.1"))
        var other = Viewer()
        var rng = SplitMix64(seed: 3)
        _ = h.model.apply(.rm(path: "/catalog/item-2"), viewer: &other, now: 0, rng: &rng)
        return h
    }

    @Test func aClientWhoseCurrentListWasRemovedIsMovedToTheNearestAncestorWithANotice() {
        let h = Self.inARemovedBranch()
        let ls = h.run("LS")
        #expect(
            ls.reply.error == nil
                && ls.reply.message.hasSuffix(
                    "(your current path /catalog/item-2/item-2.1 was removed; you are now at /catalog)"),
            "\(ls.reply)")
        #expect(h.run("PWD").reply.message == "/catalog", "told once, then where it is")
    }

    /// A server tries `read` first and applies what it declines: the write is told of the move.
    @Test func aWriteTriedAsAReadFirstIsStillToldThatItsCurrentPathMoved() {
        let h = Self.inARemovedBranch()
        let fav = Command.fav(path: "/items/1", action: .toggle)
        #expect(h.model.read(fav, viewer: &h.viewer) == nil)
        let out = h.model.applyUnread(fav, viewer: &h.viewer, now: h.now, rng: &h.rng)
        #expect(out.reply.message.hasSuffix("you are now at /catalog)"), "\(out.reply)")
        #expect(h.viewer.cwd == "/catalog")
    }
}

@Suite struct CompleterTests {
    @Test func completesVerbsInTheCaseTyped() {
        let h = Harness()
        #expect(h.rows("COMPLETE se") == ["select", "set"])
        #expect(h.rows("COMPLETE SE") == ["SELECT", "SET"])
    }
    @Test func completesNestedPaths() {
        let h = Harness()
        #expect(h.rows("COMPLETE LS /cat") == ["/catalog/"])
        #expect(h.rows("COMPLETE ls /catalog/item-2/") == ["/catalog/item-2/item-2.1/", "/catalog/item-2/item-2.2"])
    }
    @Test func completesOptionsAfterSelect() {
        let h = Harness()
        #expect(h.rows("COMPLETE SELECT /settings/my-string G") == ["Green"])
        #expect(h.rows("COMPLETE SELECT /settings/my-int #") == ["#1", "#2", "#3", "#4"])
    }
    @Test func completesMenuEntriesAfterOrderAndKeywords() {
        let h = Harness()
        #expect(h.rows("COMPLETE ORDER pe").contains("pepperoni"))
        #expect(h.rows("COMPLETE FAV /items/1 o") == ["on", "off"])
        #expect(h.rows("COMPLETE WATCH /items F") == ["FROM"])
        #expect(h.rows("COMPLETE FILTER f") == ["favorites"])
    }
    @Test func quotesCandidatesThatNeedIt() {
        let h = Harness()
        #expect(h.ok(#"ADD /settings "Mode" text "Dark Mode" Light"#))
        #expect(h.rows("COMPLETE SELECT /settings/mode D") == [#""Dark Mode""#])
    }
}
