import Testing
import TabulaModel
import TabulaProtocol

/// `LS … LIMIT n AFTER name` over a large branch, with and without grants: every page after
/// the first starts where the previous ended (found by the branch's index of names), the
/// pages together are the whole list in order, and each page's count and "more" hint count
/// what the viewer sees.
@Suite struct PagingTests {
    static func branch(children n: Int) -> Harness {
        let h = Harness()
        #expect(h.ok("ADD /catalog Big"))
        for k in 0..<n { _ = h.run("ADD /catalog/big \"Child \(k)\"") }
        return h
    }

    /// Every row of `path`, read `limit` at a time by following each page's hint.
    static func paged(_ h: Harness, _ path: String, limit: Int) -> (rows: [String], totals: Set<String>) {
        var rows: [String] = []
        var totals = Set<String>()
        var next = "LS \(path) LIMIT \(limit)"
        while true {
            let r = h.run(next).reply
            #expect(r.error == nil, "\(next): \(String(describing: r.error))")
            rows += r.rows.map(\.text)
            totals.insert(String(r.message.split(separator: ";")[0].split(separator: " ").last ?? ""))
            guard let more = r.message.range(of: "more: ") else { return (rows, totals) }
            next = String(r.message[more.upperBound...])
        }
    }

    @Test(arguments: [1, 7, 100, 1000])
    func pagesFollowEachOtherAndMakeTheWholeBranch(limit: Int) {
        let h = Self.branch(children: 1_200)
        let whole = h.rows("LS /catalog/big LIMIT 10000")
        #expect(whole.count == 1_200)
        let (rows, totals) = Self.paged(h, "/catalog/big", limit: limit)
        #expect(rows == whole)
        #expect(totals == ["1200"])
    }

    @Test(arguments: [1, 7, 100])
    func aViewerWithGrantsPagesOverWhatItSeesOnly(limit: Int) {
        let h = Self.branch(children: 300)
        let denied = (0..<300).filter { $0 % 7 == 3 }.map { "/catalog/big/child-\($0)" }
        h.viewer.grants = Grants(deny: denied)
        let whole = h.rows("LS /catalog/big LIMIT 10000")
        #expect(whole.count == 300 - denied.count)
        #expect(!whole.contains { $0.hasPrefix("child-3/") })
        let (rows, totals) = Self.paged(h, "/catalog/big", limit: limit)
        #expect(rows == whole)
        #expect(totals == ["\(300 - denied.count)"])
    }

    @Test func afterAHiddenOrUnknownNameIsNotFound() {
        let h = Self.branch(children: 20)
        h.viewer.grants = Grants(deny: ["/catalog/big/child-5"])
        #expect(h.error("LS /catalog/big LIMIT 5 AFTER child-5") == .notFound)
        #expect(h.error("LS /catalog/big LIMIT 5 AFTER nobody") == .notFound)
        #expect(h.rows("LS /catalog/big LIMIT 1 AFTER child-4").first?.hasPrefix("child-6/") == true)
    }

    @Test func aPageThatEndsTheListSaysNoMore() {
        let h = Self.branch(children: 10)
        let r = h.run("LS /catalog/big LIMIT 5 AFTER child-4").reply
        #expect(r.rows.count == 5 && r.message == "5 of 10", "\(r.message)")
    }
}
