import Foundation
import Testing
import TabulaProtocol

/// The verb table is the one declaration: arity and usage follow from the arguments, and
/// Protocol.md's verb list is held to it.
@Suite struct VerbTableTests {
    @Test func everyVerbsArityFollowsFromItsArguments() {
        #expect(Verb.ls.arity == 0...5 && Verb.select.arity == 2...2 && Verb.set.arity == 2...Int.max)
        #expect(Verb.sync.arity == 1...3 && Verb.watch.arity == 0...5 && Verb.fav.arity == 1...2)
        #expect(Verb.add.arity == 1...Int.max && Verb.bands.arity == 0...Int.max && Verb.quit.arity == 0...0)
        #expect(
            Verb.ls.usage == "LS [path] [LIMIT n] [AFTER name]" && Verb.set.usage == "SET path field=value… [IF REV n]")
    }

    @Test func everyWriteVerbTakesTheConditionLastAndNoOtherVerbDoes() {
        for v in Verb.allCases {
            let writes = v.traits().access == .write || v.traits(hasArguments: true).access == .write
            #expect(v.spec.conditional == writes && v.usage.hasSuffix(" [IF REV n]") == writes, "\(v.usage)")
        }
    }

    @Test func everyVerbFindsItsOwnDeclarationInTheBuiltTable() {
        #expect(Set(Verb.allCases.map(\.summary)).count == Verb.allCases.count)
        #expect(
            Verb.ping.summary.contains("PONG") && Verb.clients.summary.contains("connected clients")
                && Verb.sync.summary.contains("revision"))
        #expect(
            Verb.help.summary.contains("verbs") && Verb.auth.summary.contains("log in")
                && Verb.whoami.summary.contains("user"))
        #expect(
            Verb.bands.traits(hasArguments: true).access == .write && Verb.bands.traits().access == .read
                && Verb.select.traits().access == .write)
    }

    @Test func everyVerbsOrdinalIsItsPlaceInTheDeclarationOrder() {
        for (i, v) in Verb.allCases.enumerated() { #expect(v.ordinal == i, "\(v)") }
    }

    @Test func theTableSaysWhereEachVerbRunsAndWhatItMayDoBeforeALoginWhileSubscribedAndOverHTTP() {
        func verbs(_ has: (VerbTraits) -> Bool) -> Set<Verb> { Set(Verb.allCases.filter { has($0.traits()) }) }
        #expect(
            verbs(\.readsModel) == [
                .ls, .show, .select, .add, .set, .rm, .mv, .fav, .bands, .order, .complete, .sync, .watch,
            ])
        #expect(verbs(\.beforeLogin) == [.auth, .ping, .help, .quit])
        #expect(verbs(\.whileSubscribed) == [.watch, .unwatch, .ping, .quit])
        #expect(
            verbs(\.overHTTP) == [
                .ls, .show, .select, .add, .set, .rm, .mv, .fav, .bands, .order, .complete, .sync, .stats, .clients,
                .ping, .help, .whoami,
            ])
    }

    @Test func protocolMdNamesEveryVerbWithItsUsageAndNothingElse() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Protocol.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let section = text.components(separatedBy: "## 7. Verbs")[1].components(separatedBy: "\n## ")[0]
        let documented = section.split(separator: "\n").filter { $0.hasPrefix("### ") }
            .flatMap { $0.dropFirst(4).components(separatedBy: " / ") }
        #expect(
            Set(documented) == Set(Verb.allCases.map(\.usage)),
            "documented but not declared: \(Set(documented).subtracting(Verb.allCases.map(\.usage))); declared but not documented: \(Set(Verb.allCases.map(\.usage)).subtracting(documented))"
        )
    }
}
