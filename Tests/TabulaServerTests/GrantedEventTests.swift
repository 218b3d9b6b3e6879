import Foundation
import Testing
import TabulaAccess
import TabulaClient
import TabulaModel
import TabulaProtocol
import TabulaServer

/// Nothing a user's grants hide reaches it through an event's fields (the fifth hostile
/// round): the users `cat2` (allowed /catalog, denied /catalog/item-2/item-2.2) and `menu`
/// (denied /menu/pizza/margherita and /settings/my-int/64), watching in JSON, live and in a
/// replay, against their own reads.
@Suite struct GrantedEventTests {
    static let users: [String: UserEntry] = [
        "admin": AccessControlTests.user("admin", .admin),
        "cat2": AccessControlTests.user("cat2", .read, allow: ["/catalog"], deny: ["/catalog/item-2/item-2.2"]),
        "menu": AccessControlTests.user(
            "menu", .read, deny: ["/menu/pizza/margherita", "/settings/my-int/64"]),
    ]

    static func withUsers(_ body: (Server) throws -> Void) throws {
        try withServer({ $0.users = Self.users }, body)
    }

    /// `name` logged in, reading JSON (or text), watching `prefix`.
    static func watcher(_ s: Server, _ name: String, _ prefix: String, json: Bool = true) throws -> TabulaConnection {
        let c = try AccessControlTests.login(s, name)
        if json { #expect(try c.request("FORMAT json").isOK) }
        #expect(try c.request("WATCH \(prefix)").isOK)
        return c
    }

    /// The JSON events `c` was sent before a PING it sends now is answered.
    static func events(_ c: TabulaConnection) throws -> [JSONValue] {
        try lines(c).compactMap { JSONParser.parse($0) }.filter { $0["push"] == .string("event") }
    }

    /// The push lines `c` was sent before a PING it sends now is answered.
    static func lines(_ c: TabulaConnection) throws -> [String] {
        let r = try c.request("PING end")
        #expect(r.isOK)
        return r.lines + c.takePushes()
    }

    @Test func aCatalogEventCountsTheChildrenTheUserSeesAndNoneItCannot() throws {
        try Self.withUsers { s in
            let cat2 = try Self.watcher(s, "cat2", "/catalog"),
                text = try Self.watcher(s, "cat2", "/catalog", json: false)
            let admin = try AccessControlTests.login(s, "admin")
            #expect(try admin.request("SET /catalog/item-2 title=Two").isOK)
            #expect(try admin.request("ADD /catalog/item-2 \"Two Three\"").isOK)
            let seen = try Self.events(cat2)
            #expect(seen.count == 2, "\(seen)")
            let set = try #require(seen.first)
            // Item 2's children are 2.1 and 2.2, and cat2 is denied 2.2: its own LS counts one.
            #expect(
                set["value"]?["children"] == .int(1) && set["prev"]?["children"] == .int(1),
                "2 counts a hidden child: \(set)")
            let added = try #require(seen.last)
            #expect(added["value"]?["children"] == .int(0), "a new branch hides nothing: its count is its own")
            #expect(added["parent"]?["children"] == .int(2), "2.1 and the new one: \(added)")
            let said = try Self.lines(text).filter { $0.hasPrefix("* EVENT") }
            #expect(said.first?.hasSuffix("set /catalog/item-2 item-2/  Two  (1 child)") == true, "\(said)")
        }
    }

    @Test func anOrderOfADeniedEntryIsNeverNamedItsRemovalNorItsClear() throws {
        try Self.withUsers { s in
            let menu = try Self.watcher(s, "menu", "/orders"),
                text = try Self.watcher(s, "menu", "/orders", json: false)
            let admin = try AccessControlTests.login(s, "admin")
            #expect(try admin.request("ORDER margherita").isOK)
            #expect(try admin.request("ORDER pepperoni").isOK)
            #expect(try admin.request("ORDER margherita").isOK)
            #expect(try admin.request("RM /orders/1").isOK)
            #expect(try admin.request("RM /orders").isOK)
            let seen = try Self.events(menu)
            let json = seen.map { "\($0)" }.joined(separator: "\n")
            #expect(!json.contains("argherita"), "\(json)")
            #expect(seen.map { $0["kind"]?.stringValue } == ["order", "clear"], "\(json)")
            let said = try Self.lines(text).filter { $0.hasPrefix("* EVENT") }
            #expect(said.count == 2 && !said.joined().contains("argherita"), "\(said)")
            #expect(said.last?.hasSuffix("clear /orders orders cleared") == true, "a count of hidden orders: \(said)")
            let replay = try AccessControlTests.login(s, "menu")
            let r = try replay.request("WATCH /orders FROM 0")
            #expect(r.isOK)
            let replayed = try Self.lines(replay).joined(separator: "\n")
            #expect(!replayed.contains("argherita"), "\(replayed)")
            #expect(replayed.contains("orders cleared") && !replayed.contains("2 orders"), "\(replayed)")
        }
    }

    @Test func aDeniedOptionIsInNoSelectEventNorInTheSettingsRowsOrShow() throws {
        try Self.withUsers { s in
            let menu = try Self.watcher(s, "menu", "/settings")
            let admin = try AccessControlTests.login(s, "admin")
            #expect(try admin.request("SELECT /settings/my-int #3").isOK)
            let seen = try Self.events(menu)
            #expect(seen.count == 1)
            for e in seen {
                for v in [e["value"], e["prev"]] {
                    #expect(v?["options"] == .array([.int(8), .int(16), .int(32)]), "\(e)")
                    #expect(v?["selected"] == nil, "an index that counts the hidden option: \(e)")
                }
            }
            let rows = try menu.request("LS /settings").reply.rows.map(\.json.resolved)
            let myInt = try #require(rows.first { $0["name"] == .string("my-int") })
            #expect(myInt["options"] == .array([.int(8), .int(16), .int(32)]), "\(myInt)")
            _ = try menu.request("FORMAT text")
            let shown = try menu.request("SHOW /settings/my-int").data
            #expect(shown.contains { $0.hasPrefix("options") && !$0.contains("64") }, "\(shown)")
            #expect(shown.contains("selected: 32"), "no index that counts the hidden option: \(shown)")
        }
    }

    @Test func anAdminStillGetsEveryField() throws {
        try Self.withUsers { s in
            let admin = try Self.watcher(s, "admin", "/")
            let writer = try AccessControlTests.login(s, "admin")
            #expect(try writer.request("SET /catalog/item-2 title=Two").isOK)
            #expect(try writer.request("SELECT /settings/my-int #3").isOK)
            let seen = try Self.events(admin)
            #expect(seen.first?["value"]?["children"] == .int(2))
            #expect(seen.last?["value"]?["options"] == .array([.int(8), .int(16), .int(32), .int(64)]))
            #expect(seen.last?["value"]?["selected"] == .int(3))
        }
    }
}
