import Testing
import TabulaProtocol

@testable import TabulaModel

/// A list's children as a viewer's grants show them, reduced to a default and a few named
/// exceptions (`ChildGrants`), equals the grants asked of each child's path; and a page of a
/// list read through it (`pageReply`) equals the naive page: every child's path checked, the
/// shown ones counted and paged. Grants are drawn at random from prefixes at, above, on and
/// below the list's children (with case and byte variants); a failure names its seed.
@Suite struct ChildGrantsTests {
    static let lists = ["/catalog", "/catalog/a", "/menu/pizza", "/"]
    static let names = ["a", "b", "ab", "B", "a.1", "child-1", "child-10", "x"]

    /// Random grants over prefixes of `lists` and `names`, some naming a path below a child.
    static func grants(_ g: inout SplitMix64) -> Grants {
        var pool = ["/", "/catalog", "/menu", "/items"]
        for l in lists {
            for n in names { pool += [l == "/" ? "/" + n : l + "/" + n, (l == "/" ? "" : l) + "/" + n + "/deep"] }
        }
        func some() -> [String] { (0..<Int(g.next() % 4)).map { _ in pool[Int(g.next() % UInt64(pool.count))] } }
        return Grants(allow: g.next() % 3 == 0 ? [] : some(), deny: some())
    }

    @Test func theDefaultAndItsExceptionsShowWhatTheGrantsShowOfEachChild() {
        for seed in UInt64(1)...2_000 {
            var g = SplitMix64(seed: seed)
            let grants = Self.grants(&g)
            for list in Self.lists {
                let children = ChildGrants(grants, list: list)
                for n in Self.names + ["unnamed"] {
                    let path = list == "/" ? "/" + n : list + "/" + n
                    #expect(children.shows(n) == grants.shows(path), "seed \(seed): \(grants) of \(path)")
                }
            }
        }
    }

    /// The page the slow way: every child's path checked.
    static func naivePage(
        _ names: [String], path: String, limit: Int, after: String?, grants: Grants
    ) -> (rows: [String], message: String)? {
        let shown = names.filter { grants.shows(path + "/" + $0) }
        var start = 0
        if let after {
            guard let i = shown.firstIndex(of: after) else { return nil }
            start = i + 1
        }
        let rows = Array(shown.dropFirst(start).prefix(limit))
        var message = "\(rows.count) of \(shown.count)"
        if start + rows.count < shown.count, let last = rows.last {
            message += "; more: LS \(path) LIMIT \(limit) AFTER \(last)"
        }
        return (rows, message)
    }

    @Test func aPageThroughTheExceptionsIsTheNaivePage() throws {
        for seed in UInt64(1)...2_000 {
            var g = SplitMix64(seed: seed)
            let grants = Self.grants(&g)
            var viewer = Viewer()
            viewer.grants = grants
            // Children are slugs, lower case (AFTER folds case); `B` stays in the grants only.
            let list = Self.names.filter { $0 != "B" && g.next() % 4 != 0 }
            let limit = 1 + Int(g.next() % 4)
            let after = g.next() % 2 == 0 ? list.randomElement(using: &g) : nil
            let want = Self.naivePage(list, path: "/catalog", limit: limit, after: after, grants: grants)
            let got = try? pageReply(
                list, path: "/catalog", limit: limit, after: after, viewer: viewer, name: { $0 },
                row: { Row(text: $0, json: .null) })
            #expect(got?.rows.map(\.text) == want?.rows, "seed \(seed): \(grants), \(list) AFTER \(after ?? "-")")
            #expect(got?.message == want?.message, "seed \(seed): \(grants), \(list) AFTER \(after ?? "-")")
        }
    }
}
