import Testing
import TabulaProtocol

@testable import TabulaModel

@Suite struct ResolveFastPathTests {
    /// The fast walk for plain paths must land where the general resolver does, from any
    /// current path, and step aside for `.`, `..` and anything missing.
    @Test func theFastWalkAgreesWithTheGeneralResolverOnRandomPaths() {
        let model = SeedData.model(now: 1_700_000_000)
        var names: [String] = [
            "settings", "catalog", "items", "menu", "orders", "Settings", "MY-INT", ".", "..", ".x", "nope", "", "1",
            "2", "99999",
        ]
        for t in Model.roots.indices.map({ Target.place(list: $0, .top) }) {
            names += model.childNames(of: t).map(\.name)
            for child in model.childNames(of: t) {
                if let c = model.child(of: t, named: child.name) { names += model.childNames(of: c).map(\.name) }
            }
        }
        let cwds = ["/", "/settings", "/items", "/catalog", "/menu", "/nowhere"]
        var rng = SystemRandomNumberGenerator()
        var fastTaken = 0
        for _ in 0..<20_000 {
            var path = Bool.random(using: &rng) ? "/" : ""
            path += (0..<Int.random(in: 0...4, using: &rng)).map { _ in names.randomElement(using: &rng)! }.joined(
                separator: "/")
            if Bool.random(using: &rng) { path += "/" }
            let viewer = Viewer(cwd: cwds.randomElement(using: &rng)!)
            let general = model.resolveBySegments(path, viewer: viewer)
            #expect(model.resolve(path, viewer: viewer) == general, "\(path) from \(viewer.cwd)")
            if let fast = model.resolvePlain(path, viewer: viewer) {
                fastTaken += 1
                #expect(.success(fast) == general, "\(path) from \(viewer.cwd)")
            }
        }
        #expect(fastTaken > 1000)
    }
}
