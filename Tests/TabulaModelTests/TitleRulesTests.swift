import Testing
import TabulaModel
import TabulaProtocol

/// Titles and names: never empty or blank, one title per set of siblings, and errors that
/// say what is wrong.
@Suite struct TitleRulesTests {
    @Test(arguments: [
        "ADD /settings \"\" int 1", "ADD /settings \"   \" int 1", "ADD /menu \"\"", "ADD /menu \" \"",
        "ADD /menu/pizza \"\"",
        "ADD /catalog \"\"", "ADD /catalog \"  \" text hi", "ADD /items \"\" 5", "ADD /items \"  \" 5",
        "SET /items/1 name=\"   \"", "SET /items/1 name=", "SET /menu/pizza title=\" \"", "SET /catalog/item-1 title=",
        "SET /catalog/item-1/item-1.1 tabs=\"\"", "SET /catalog/item-1/item-1.1 tabs=\" , \"",
        "ADD /settings/my-string \" \"",
    ])
    func blankTitlesAndNamesAreRefusedEverywhere(_ line: String) {
        let h = Harness()
        let o = h.run(line)
        #expect(o.reply.error?.code == .invalid, "\(line): \(o.reply.error?.message ?? "accepted")")
        #expect(h.model.revision == 0)
    }

    @Test func anEmptyTitleSaysTheTitleCannotBeEmpty() {
        let h = Harness()
        let message = h.run("SET /settings/my-int title=").reply.error?.message ?? ""
        #expect(message.contains("cannot be empty"), "\(message)")
        #expect(!message.contains("has no field"))
    }

    @Test func setMayNotGiveTwoSiblingsOneTitle() {
        let h = Harness()
        #expect(h.error("SET /settings/my-int title=\"My String\"") == .exists)
        #expect(h.error("SET /menu/pizza title=pasta") == .exists)
        #expect(h.error("SET /menu/pizza/pepperoni title=Margherita") == .exists)
        #expect(h.error("SET /catalog/item-2 title=\"Item 1\"") == .exists)
        #expect(h.ok("SET /catalog/item-2 title=\"Item Two\""))
        #expect(h.model.revision == 1)
    }

    @Test func aNegativeNumberIsAnOptionOfItsOwn() {
        let h = Harness()
        #expect(h.ok("ADD /settings Temp int 5"))
        #expect(h.ok("ADD /settings/temp -5"))
        #expect(h.rows("LS /settings/temp") == ["[x] #1  5", "[ ] #2  -5"])
        #expect(h.ok("SELECT /settings/temp -5"))
        #expect(h.rows("SHOW /settings/temp/-5").dropLast().last == "selected: yes", "before the rev row")
        #expect(h.error("ADD /settings/temp -5") == .exists)
    }

    @Test func aCatalogLeafCannotBeEntered() {
        let h = Harness()
        let o = h.run("CD /catalog/item-3")
        #expect(o.reply.error?.code == .invalid)
        #expect(o.reply.error?.message.contains("is not a list") == true)
        #expect(h.ok("CD /catalog/item-1"))
        #expect(h.rows("PWD") == [])
    }

    @Test func theMoveEventCarriesTheNewPositionAndSection() {
        let h = Harness()
        let o = h.run("MV /items/4 1")
        #expect(o.event?.value["position"] == .int(1))
        #expect(o.event?.value["section"] == .string("expensive-items"))
    }

    @Test func countsAreSingularForOne() {
        let h = Harness()
        #expect(h.ok("ADD /catalog Solo"))
        #expect(h.ok("ADD /catalog/solo Only text hi"))
        #expect(h.rows("LS /catalog").contains("solo/  Solo  (1 child)"))
        #expect(h.run("COMPLETE SHOW /setting").reply.message == "1 candidate")
        #expect(h.ok("RM /catalog/solo"))
        #expect(h.run("LS /items/expensive-items LIMIT 1").reply.message.hasPrefix("1 item;"))
    }
}
