import Testing
import TabulaProtocol

@testable import TabulaModel

/// `RM /orders` clears every order: a writer whose grants may hide some is refused, so that it
/// neither removes nor counts what it is not shown.
@Suite struct OrdersClearTests {
    static func orders(_ h: Harness) -> Int {
        let grants = h.viewer.grants
        h.viewer.grants = nil
        defer { h.viewer.grants = grants }
        return h.run("LS /orders LIMIT 10000").reply.rows.count
    }

    @Test func aWriterWhoseGrantsMayHideOrdersIsRefusedAndNothingGoes() {
        let h = Harness()
        _ = h.run("ORDER /menu/dessert/tiramisu")
        _ = h.run("ORDER /menu/pizza/margherita")
        h.viewer.grants = Grants(allow: ["/items", "/orders"], deny: ["/menu/dessert/tiramisu"])
        let refused = h.run("RM /orders")
        #expect(refused.reply.error?.code == .noPerm)
        #expect(refused.event == nil && refused.mutations.isEmpty)
        #expect(!(refused.reply.error?.message.contains("2") ?? true), "the refusal counts the orders")
        #expect(Self.orders(h) == 2)
        #expect(h.ok("RM /orders/2"))  // the order it sees, one by one
        #expect(Self.orders(h) == 1)
    }

    @Test func aWriterWhoSeesEveryOrderClearsThemAll() {
        let h = Harness()
        _ = h.run("ORDER /menu/dessert/tiramisu")
        h.viewer.grants = Grants(allow: ["/items", "/orders"], deny: [])
        let cleared = h.run("RM /orders")
        #expect(cleared.reply.error == nil)
        #expect(cleared.event?.what == .clear)
        #expect(Self.orders(h) == 0)
    }
}
