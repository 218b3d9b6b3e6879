import Testing
import TabulaProtocol

@testable import TabulaServer

@Suite struct WatchHubTests {
    let a = ConnectionID(loop: 0, serial: 1)
    let b = ConnectionID(loop: 1, serial: 2)
    let c = ConnectionID(loop: 0, serial: 3)

    private func members(_ hub: inout WatchHub, _ path: String) -> [UInt64: WireFormat] {
        Dictionary(uniqueKeysWithValues: (hub.audience(of: path)?.members ?? []).map { ($0.conn.raw, $0.format) })
    }

    @Test func theWatchCountFollowsEveryAddAndRemoval() {
        var hub = WatchHub()
        hub.add(a, "/items", format: .text)
        hub.add(a, "/items", format: .text)  // the same watch again
        hub.add(a, "/menu", format: .json)  // a new format: still two watches
        hub.add(b, "/", format: .sse)
        #expect(hub.count == 3)
        hub.remove(a, "/nothing")
        #expect(hub.count == 3)
        hub.remove(a, nil)
        #expect(hub.count == 1)
        hub.remove(b, "/")
        #expect(hub.count == 0 && hub.isEmpty)
    }

    @Test func anEventGoesToEveryoneWatchingAPrefixOfItsPathAndNobodyElse() {
        var hub = WatchHub()
        hub.add(a, "/items", format: .text)
        hub.add(b, "/", format: .json)
        hub.add(c, "/settings", format: .text)
        #expect(members(&hub, "/items/7") == [a.raw: .text, b.raw: .json])
        #expect(members(&hub, "/itemsx") == [b.raw: .json])
        #expect(members(&hub, "/settings/my-int") == [b.raw: .json, c.raw: .text])
    }

    @Test func aConnectionWatchingTwoMatchingPrefixesGetsEachEventOnce() {
        var hub = WatchHub()
        hub.add(a, "/items", format: .text)
        hub.add(a, "/", format: .text)
        let audience = hub.audience(of: "/items/1")
        #expect(audience?.members.count == 1)
    }

    @Test func theAudienceOfOnePrefixIsTheSameObjectUntilItsWatchesChange() {
        var hub = WatchHub()
        hub.add(a, "/items", format: .text)
        hub.add(b, "/items", format: .text)
        let first = hub.audience(of: "/items/1")
        #expect(first != nil && first === hub.audience(of: "/items/2"))
        hub.setFormat(b, .json)
        let second = hub.audience(of: "/items/3")
        #expect(second !== first)
        #expect(second?.formats.contains(.json) == true && second?.formats.contains(.text) == true)
        hub.remove(a, nil)
        #expect(members(&hub, "/items/4") == [b.raw: .json])
        hub.remove(b, "/items")
        #expect(hub.audience(of: "/items/5") == nil)
        #expect(hub.isEmpty)
    }

    @Test func twoSpellingsThatAreEqualAsStringsAreTwoPrefixesEachSentItsOwnEvents() {
        let composed = "/catalog/caf\u{E9}", decomposed = "/catalog/cafe\u{301}"
        var hub = WatchHub()
        hub.add(a, decomposed, format: .text)
        hub.add(b, composed, format: .json)
        #expect(members(&hub, composed + "/x") == [b.raw: .json])
        #expect(members(&hub, decomposed) == [a.raw: .text])
        #expect(hub.remove(b, decomposed) == 0, "b watches the other spelling")
        hub.remove(a, nil)
        hub.remove(b, composed)
        #expect(hub.isEmpty)
        hub.add(c, "/items/K", format: .text)
        #expect(hub.remove(c, "/items/\u{212A}") == 0)  // the Kelvin sign: another prefix
        #expect(members(&hub, "/items/\u{212A}").isEmpty && members(&hub, "/items/K") == [c.raw: .text])
        hub.remove(c, "/items/K")
        #expect(hub.isEmpty)
    }

    @Test func anEventLooksUpOnlyThePrefixesOfItsOwnPath() {
        #expect(WatchHub.prefixes(of: "/items/5") == ["/", "/items", "/items/5"])
        #expect(WatchHub.prefixes(of: "/") == ["/"])
        #expect(WatchHub.prefixes(of: "/catalog/a/b") == ["/", "/catalog", "/catalog/a", "/catalog/a/b"])
        var hub = WatchHub()
        for n in 0..<1_000 { hub.add(a, "/items/\(n)", format: .text) }
        hub.add(b, "/items", format: .json)
        #expect(members(&hub, "/items/7") == [a.raw: .text, b.raw: .json])
        #expect(members(&hub, "/items/1000") == [b.raw: .json])
        #expect(hub.audience(of: "/orders/1") == nil)
    }
}
