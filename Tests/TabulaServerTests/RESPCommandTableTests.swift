import Testing
import TabulaProtocol
@testable import TabulaServer

/// The value at `key` of a RESP map.
func field(_ v: RESPValue, _ key: String) -> RESPValue? {
    guard case .map(let pairs) = v else { return nil }
    return pairs.first { $0.0 == key }?.1
}

@Suite struct RESPCommandTableTests {
    @Test func docsNameEveryVerbOfTheTableAndRESPsOwnCommands() {
        guard case .map(let pairs) = RESPCommandTable.docs([]) else { Issue.record("DOCS is not a map"); return }
        let names = pairs.map(\.0)
        for v in Verb.allCases { #expect(names.contains(v.rawValue.lowercased()), "\(v) is in COMMAND DOCS") }
        for own in ["hello", "client", "config", "info", "command", "subscribe", "unsubscribe"] {
            #expect(names.contains(own))
        }
        #expect(Set(names).count == names.count, "each command once")
    }

    /// redis-cli asserts on these: a bulk name and type for every argument, a set of statuses
    /// for flags, and no empty token (it would print `""`).
    @Test func everyArgumentHasTheFieldsRedisCliReads() {
        guard case .map(let pairs) = RESPCommandTable.docs([]) else { return }
        for (name, docs) in pairs {
            for key in ["summary", "since", "group"] {
                guard case .bulk? = field(docs, key) else { Issue.record("\(name) has no \(key)"); continue }
            }
            guard case .array(let args)? = field(docs, "arguments") else {
                Issue.record("\(name) has no arguments"); continue
            }
            for a in args { check(a, of: name) }
        }
    }

    func check(_ a: RESPValue, of command: String) {
        guard case .bulk(let n)? = field(a, "name"), !n.isEmpty, case .bulk(let type)? = field(a, "type") else {
            Issue.record("\(command): an argument without name or type")
            return
        }
        #expect(["string", "integer", "oneof", "pure-token"].contains(type), "\(command) \(n): type \(type)")
        if case .bulk(let t)? = field(a, "token") { #expect(!t.isEmpty, "\(command) \(n): empty token") }
        if let flags = field(a, "flags") {
            guard case .set(let fs) = flags else { Issue.record("\(command) \(n): flags not a set"); return }
            for f in fs {
                guard case .simple(let s) = f else {
                    Issue.record("\(command) \(n): a flag that is not a status"); continue
                }
                #expect(["optional", "multiple"].contains(s))
            }
        }
        if type == "oneof" {
            guard case .array(let subs)? = field(a, "arguments"), !subs.isEmpty else {
                Issue.record("\(command) \(n): oneof without choices"); return
            }
            for s in subs { check(s, of: command) }
        }
    }

    @Test func lsIsDocumentedAsItsUsageLineReadsWithKeywordsAsTokens() {
        guard case .map(let pairs) = RESPCommandTable.docs(["LS"]), pairs.count == 1,
            case .array(let args)? = field(pairs[0].1, "arguments")
        else {
            Issue.record("no LS")
            return
        }
        #expect(args.count == 3)
        #expect(field(args[1], "token") == .bulk("LIMIT"))
        #expect(field(args[2], "token") == .bulk("AFTER"))
        #expect(field(args[0], "flags") == .set([.simple("optional")]))
    }

    @Test func infoIsTheTenElementArrayWithRedisArity() {
        guard case .array(let all) = RESPCommandTable.info([]) else { return }
        #expect(all.count == RESPCommandTable.all.count)
        for e in all {
            guard case .array(let fields) = e else { Issue.record("an entry that is not an array"); continue }
            #expect(fields.count == 10)
        }
        guard case .array(let one) = RESPCommandTable.info(["select", "nope"]), one.count == 2,
            case .array(let select) = one[0]
        else { return }
        #expect(select[1] == .integer(-3), "SELECT setting option [IF REV n]: the command and at least two words")
        #expect(one[1] == .null, "an unknown name is null")
        guard case .array(let ls) = RESPCommandTable.info(["ls"]).first else { return }
        #expect(ls[1] == .integer(-1), "LS takes at least nothing after its name")
    }
}

extension RESPValue {
    var first: RESPValue? {
        guard case .array(let a) = self else { return nil }
        return a.first
    }
}
