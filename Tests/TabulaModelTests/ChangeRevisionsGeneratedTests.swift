import Testing
import TabulaModel
import TabulaProtocol

/// `ChangeRevisions` against a plain table of every stamped path, written here from its rules
/// (sharing no code with it): random changes of random kinds at random depths of the nested
/// lists (and of a numbered one), then every path's revision compared. A removal forgets
/// exactly what was stamped under it, however deep, whether or not the paths between were
/// stamped. A failure names its seed.
@Suite struct ChangeRevisionsGeneratedTests {
    /// The rules, the slow way: a table by path; a removal scans it all.
    struct Reference {
        var table: [String: UInt64] = [:]
        let base: UInt64

        func revision(of path: String) -> UInt64 { table[path] ?? base }

        mutating func note(_ rev: UInt64, _ kind: String, _ path: String) {
            let segments = path.split(separator: "/")
            let top = "/" + segments[0]
            if segments.count == 1 {
                if kind == "rm" || kind == "clear" { table = table.filter { !$0.key.hasPrefix(top + "/") } }
                table[top] = kind == "rm" ? nil : rev
                return
            }
            if kind == "rm" || kind == "clear" {
                table = table.filter { $0.key != path && !$0.key.hasPrefix(path + "/") }
                if kind == "clear" { table[path] = rev }
            } else {
                table[path] = rev
            }
            guard ["add", "rm", "mv", "order", "clear", "bands"].contains(kind) else { return }
            for depth in 1..<segments.count { table["/" + segments[..<depth].joined(separator: "/")] = rev }
        }
    }

    static let tops = ["catalog", "menu", "settings", "items"]
    static let names = ["a", "b", "c", "7"]
    static let kinds = ["add", "set", "rm", "mv", "select", "fav"]

    static func randomPath(_ g: inout SplitMix64) -> String {
        let top = tops[Int(g.next() % UInt64(tops.count))]
        let depth = top == "items" ? Int(g.next() % 2) : Int(g.next() % 4)
        return "/"
            + ([top] + (0..<depth).map { _ in names[Int(g.next() % UInt64(names.count))] }).joined(separator: "/")
    }

    @Test(arguments: 1...40)
    func everyPathsRevisionIsTheReferencesAfterRandomChanges(seed: UInt64) {
        var g = SplitMix64(seed: seed)
        var revisions = ChangeRevisions(base: 5)
        var reference = Reference(base: 5)
        var universe = Set<String>()
        for rev in UInt64(6)...200 {
            let kind = Self.kinds[Int(g.next() % UInt64(Self.kinds.count))]
            let path = Self.randomPath(&g)
            universe.insert(path)
            revisions.note(Event(rev: rev, kind: kind, path: path, summary: "", value: .null))
            reference.note(rev, kind, path)
            for p in universe where revisions.revision(of: p) != reference.revision(of: p) {
                Issue.record(
                    "seed \(seed), rev \(rev) (\(kind) \(path)): \(p) is at \(revisions.revision(of: p)), not \(reference.revision(of: p))"
                )
                return
            }
        }
    }
}

/// A change the model made itself is noted by its list and number (`note(_:list:number:)`),
/// not by reading its path: the same random changes noted that way leave every path's
/// revision where the reference puts it. A failure names its seed.
@Suite struct ChangeRevisionsNotedByEntryTests {
    /// What the model's own write says of the entry at `path`: its list's place in
    /// `Model.roots`, and for an item the number that names it. Read here from the path's
    /// words, not with `ChangeRevisions`' readers.
    static func entry(of path: String) -> (list: Int, number: Int?) {
        let words = path.split(separator: "/").map(String.init)
        let list = Model.roots.firstIndex(of: words[0])!
        let number = words.count == 2 && words[0] == "items" ? Int(words[1]) : nil
        return (list, number)
    }

    @Test(arguments: 1...40)
    func everyPathsRevisionIsTheReferencesWhenChangesAreNotedByEntry(seed: UInt64) {
        var g = SplitMix64(seed: seed)
        var revisions = ChangeRevisions(base: 5)
        var reference = ChangeRevisionsGeneratedTests.Reference(base: 5)
        var universe = Set<String>()
        for rev in UInt64(6)...200 {
            let kinds = ChangeRevisionsGeneratedTests.kinds
            let kind = kinds[Int(g.next() % UInt64(kinds.count))]
            let path = ChangeRevisionsGeneratedTests.randomPath(&g)
            universe.insert(path)
            let (list, number) = Self.entry(of: path)
            revisions.note(
                Event(rev: rev, kind: kind, path: path, summary: "", value: .null), list: list, number: number)
            reference.note(rev, kind, path)
            for p in universe where revisions.revision(of: p) != reference.revision(of: p) {
                Issue.record(
                    "seed \(seed), rev \(rev) (\(kind) \(path)): \(p) is at \(revisions.revision(of: p)), not \(reference.revision(of: p))"
                )
                return
            }
        }
    }
}
