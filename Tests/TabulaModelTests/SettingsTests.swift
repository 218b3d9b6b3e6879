import Testing
import TabulaModel
import TabulaProtocol

@Suite struct SettingsTests {
    @Test func theMasterListShowsEachDetailWithItsSelectedOption() {
        let h = Harness()
        #expect(h.rows("LS /settings") == ["my-string/  My String: Yellow", "my-int/  My Int: 16"])
    }

    @Test func selectingByValueUpdatesTheMasterRowAndEmitsAnEvent() {
        let h = Harness()
        let o = h.run("SELECT /settings/my-int 32")
        #expect(o.reply.message == "My Int: 32")
        #expect(o.event?.kind == "select")
        #expect(o.event?.path == "/settings/my-int")
        #expect(o.event?.summary == "My Int: 32")
        #expect(o.event?.rev == 1)
        #expect(h.rows("LS /settings").last == "my-int/  My Int: 32")
    }

    @Test func removingAnOptionSaysTheSettingAsItWasAndWhereItStood() {
        let h = Harness()
        let o = h.run("RM /settings/my-int/8")
        #expect(o.event?.path == "/settings/my-int")
        #expect(o.event?.prev["options"]?.arrayValue?.count == 4, "the setting before: four options")
        #expect(o.event?.from == Placement(position: 2) && o.event?.at == Placement(position: 2))
    }

    @Test func anOptionsRowNamesItsPath() {
        let h = Harness()
        var v = Viewer()
        let reply = h.model.read(.ls(path: "/settings/my-int", limit: 10, after: nil), viewer: &v)
        #expect(
            reply?.rows.map { $0.path?.string } == [
                "/settings/my-int/8", "/settings/my-int/16", "/settings/my-int/32", "/settings/my-int/64",
            ])
    }

    @Test func completingTheOptionsOfAHugeSettingAnswersOnePage() {
        let h = Harness()
        #expect(h.ok("ADD /settings Big int " + (1...9_004).map(String.init).joined(separator: " ")))
        let rows = h.rows("COMPLETE SELECT /settings/big ")
        #expect(rows.count == Completer.mostCandidates && rows.first == "1")
    }

    @Test func selectingByIndexIsOneBased() {
        let h = Harness()
        #expect(h.error("SELECT my-string #3") == .notFound)  // relative to / there is no my-string
        #expect(h.ok("CD /settings"))
        #expect(h.ok("SELECT my-string #3"))
        #expect(h.rows("LS /settings").first == "my-string/  My String: Blue")
    }

    @Test func selectingAMissingOptionIsRefusedAndListsTheOptions() {
        let h = Harness()
        let o = h.run("SELECT /settings/my-int 17")
        #expect(o.reply.error?.code == .notFound)
        #expect(o.reply.error?.message.contains("8, 16, 32, 64") == true)
        #expect(h.error("SELECT /settings/my-int #5") == .notFound)
        #expect(h.model.revision == 0)
    }

    @Test func integerOptionsAreMatchedByValueNotText() {
        let h = Harness()
        #expect(h.ok("SELECT /settings/my-int +064"))
        #expect(h.model.settings[1].selectedValue == "64")
    }

    @Test func optionsListMarksTheSelectedOne() {
        let h = Harness()
        #expect(h.rows("LS /settings/my-int") == ["[ ] #1  8", "[x] #2  16", "[ ] #3  32", "[ ] #4  64"])
    }

    @Test func typedOptionsAreValidatedAndFormattedByType() {
        let h = Harness()
        #expect(h.ok(#"ADD /settings "Ratio" decimal 0.5 2 1.25"#))
        #expect(h.rows("LS /settings/ratio") == ["[x] #1  0.5", "[ ] #2  2.0", "[ ] #3  1.25"])
        #expect(h.error(#"ADD /settings "Bad" int 1 two"#) == .invalid)
        #expect(h.ok(#"ADD /settings "Dark Mode" bool on off"#))
        #expect(h.error("ADD /settings/dark-mode yes") == .exists)
        #expect(h.rows("SHOW /settings/dark-mode").contains("type: bool"))
    }

    @Test func settingsAndOptionsCanBeAddedAndRemoved() {
        let h = Harness()
        #expect(h.ok("ADD /settings/my-int 128"))
        #expect(h.rows("LS /settings/my-int").last == "[ ] #5  128")
        #expect(h.ok("RM /settings/my-int/128"))
        #expect(h.error("RM /settings/my-int/16") == .conflict)
        #expect(h.ok("RM /settings/my-string"))
        #expect(h.rows("LS /settings") == ["my-int/  My Int: 16"])
        #expect(h.error(#"ADD /settings "My Int" int 1"#) == .exists)
    }

    @Test func aWrongTypeNameIsExplained() {
        let h = Harness()
        let o = h.run(#"ADD /settings "X" colour red"#)
        #expect(o.reply.error?.message.contains("text, int, decimal, bool") == true)
    }
}
