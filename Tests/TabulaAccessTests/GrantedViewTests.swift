import Testing
import TabulaModel
import TabulaProtocol

@testable import TabulaAccess

/// What a user may learn of paths outside their grants: nothing that a model without those
/// paths would not tell. Each request runs twice, as the same user: on the seed model, and on
/// the seed model with every hidden path removed; the answers (text and JSON, refusals
/// included) must be the same, for every verb and every shape of grants.
@Suite struct GrantedViewTests {
    static let shapes: [(String, Grants)] = [
        ("an allow of one catalog node", Grants(allow: ["/catalog/item-2"])),
        ("a deny below everything allowed", Grants(deny: ["/settings/my-int"])),
        ("allows with a deny below one", Grants(allow: ["/items", "/orders"], deny: ["/items/3"])),
        ("a deny of one menu entry", Grants(deny: ["/menu/pizza/margherita"])),
        ("a deny of a whole list", Grants(deny: ["/orders", "/catalog/item-1/item-1.1"])),
        ("an allowed list with a denied section", Grants(allow: ["/menu", "/orders"], deny: ["/menu/pizza"])),
        ("a deny of the only favourite", Grants(deny: ["/items/2"])),
        ("a deny of one expensive item", Grants(allow: ["/items"], deny: ["/items/3"])),
    ]

    /// Every path of `m`, parents before children.
    static func paths(_ m: Model) -> [String] {
        var out: [String] = []
        var queue = ["/"]
        while let p = queue.first {
            queue.removeFirst()
            out.append(p)
            guard case .success(let t) = m.resolve(p, viewer: Viewer()), m.isList(t) else { continue }
            queue += m.childNames(of: t, limit: 10_000).map { (p == "/" ? "" : p) + "/" + $0.name }
        }
        return out
    }

    /// Requests that reach every part of the model: reads of every path, pages after every
    /// child, typos of every name, completions and bare names.
    static func requests(_ m: Model) -> [String] {
        var lines = [
            "LS", "LS /", "BANDS", "FILTER", "COMPLETE ORDER ", "COMPLETE ORDER m", "COMPLETE SHOW /", "COMPLETE ",
            "COMPLETE FILTER ",
            "SHOW /items", "FILTER favorites", "LS /items", "FILTER all",
        ]
        // Moves to every position a section could have, in both views.
        for filter in ["all", "favorites"] {
            lines.append("FILTER \(filter)")
            for id in 1...4 { for k in 1...4 { lines += ["MV /items/\(id) \(k)", "LS /items"] } }
        }
        lines.append("FILTER all")
        for p in paths(m) where p != "/" {
            let parent = ModelPath.join(ModelPath.segments("..", cwd: p))
            let name = String(p.split(separator: "/").last!)
            lines += [
                "LS \(p)", "SHOW \(p)", "LS \(parent) LIMIT 1 AFTER \(name)", "SHOW \(p.dropLast())", "SHOW \(p)x",
            ]
            lines += ["COMPLETE SHOW \(parent)/", "COMPLETE SELECT \(p) ", "COMPLETE SHOW \(p.dropLast())"]
            lines += ["ORDER \(name)", "ORDER \(name.dropLast())", "CD \(p)", "PWD", "CD /", "SELECT \(p) 2"]
        }
        return lines
    }

    /// The seed model with every path `g` hides removed (the outermost of each hidden branch).
    static func pruned(_ g: Grants) -> Model {
        var m = SeedData.model(now: 1_700_000_000)
        var rng = SplitMix64(seed: 1)
        var admin = Viewer()
        for p in paths(m) where !g.shows(p) && g.shows(ModelPath.join(ModelPath.segments("..", cwd: p))) {
            guard case .success(let r)? = RequestParser.parse(Array("RM \(p)".utf8)) else { continue }
            _ = m.apply(r.command, viewer: &admin, now: 1_700_000_000, rng: &rng)
        }
        return m
    }

    /// Runs `line` as `user` on `m`: the refusal or the reply, as text and JSON (revisions left
    /// out, a change's and SHOW's: the pruned model counted its removals).
    static func answer(_ line: String, on m: inout Model, viewer: inout Viewer, user: AuthUser, rng: inout SplitMix64)
        -> String
    {
        guard case .success(let r)? = RequestParser.parse(Array(line.utf8)) else { return "unparsed" }
        let v = viewer
        if let refusal = Authorization.refusal(r.command, user: user, canonical: { m.canonicalPath($0, viewer: v) }) {
            return "ERR \(refusal)"
        }
        var reply = m.apply(r.command, viewer: &viewer, now: 1_700_000_000, rng: &rng).reply
        reply.rev = nil
        reply.rows.removeAll { $0.text.hasPrefix("rev: ") }
        return String(
            decoding: WireEncoder.encode(reply, tag: nil, format: .text)
                + WireEncoder.encode(reply, tag: nil, format: .json), as: UTF8.self)
    }

    @Test(arguments: 0..<shapes.count)
    func aUserLearnsNothingOfAHiddenPathThatAModelWithoutItWouldNotTell(_ k: Int) {
        let (what, g) = Self.shapes[k]
        let user = AuthUser(name: "u", role: .write, grants: g, generation: 1)
        var seen = SeedData.model(now: 1_700_000_000), pruned = Self.pruned(g)
        var v1 = Viewer(), v2 = Viewer()
        v1.grants = g
        v2.grants = g
        #expect(Self.paths(pruned).count < Self.paths(seen).count, "the pruned model lacks the hidden paths")
        var r1 = SplitMix64(seed: 7), r2 = SplitMix64(seed: 7)
        var differences: [String] = []
        for line in Self.requests(seen) {
            let a = Self.answer(line, on: &seen, viewer: &v1, user: user, rng: &r1)
            let b = Self.answer(line, on: &pruned, viewer: &v2, user: user, rng: &r2)
            if a != b { differences.append("\(line)\n  with hidden: \(a)\n  without:     \(b)") }
        }
        #expect(
            differences.isEmpty,
            "\(what): \(differences.count) answers tell of hidden paths:\n\(differences.prefix(8).joined(separator: "\n"))"
        )
    }
}
