import Testing
import TabulaModel
import TabulaProtocol

@testable import TabulaServer

/// Protocol.md: in JSON, `data` holds the rows as objects, for every verb.
@Suite struct JSONRowsTests {
    static func isObject(_ v: JSONValue) -> Bool { if case .object = v.resolved { return true } else { return false } }

    @Test func helpRowsAreObjects() {
        #expect(ServerReplies.help(nil).rows.allSatisfy { Self.isObject($0.json) })
        #expect(ServerReplies.help("LS").rows.allSatisfy { Self.isObject($0.json) })
    }

    @Test func everyReadsRowsAreObjects() {
        let model = SeedData.model(now: 0)
        for line in [
            "LS /", "LS /settings", "LS /settings/my-int", "SHOW /settings/my-int/16", "LS /catalog",
            "SHOW /catalog/item-1/item-1.1", "LS /items", "SHOW /items",
            "SHOW /items/1", "SHOW /items/cheap-items", "LS /menu", "LS /menu/pizza", "SHOW /menu/pasta/pesto", "BANDS",
            "COMPLETE S", "COMPLETE LS /",
        ] {
            guard case .success(let r)? = RequestParser.parse(Array(line.utf8)) else {
                Issue.record("\(line) does not parse"); continue
            }
            var v = Viewer()
            let rows = model.read(r.command, viewer: &v)?.rows ?? []
            #expect(rows.allSatisfy { Self.isObject($0.json) }, "\(line)")
        }
    }
}
