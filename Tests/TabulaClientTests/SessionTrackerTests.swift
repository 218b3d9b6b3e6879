import Testing
import TabulaProtocol

@testable import TabulaClient

/// The session the client rebuilds after a reconnect is learnt from decoded replies.
@Suite struct SessionTrackerTests {
    static func ok(_ message: String, json: Bool = false) -> ServerReply {
        ServerReply(
            reply: DecodedReply(message: message),
            lines: [json ? #"{"ok":true,"message":"\#(message)"}"# : "OK \(message)"])
    }

    @Test func itLearnsThePathFilterFormatAndWatchesFromSuccessfulReplies() {
        var s = SessionTracker()
        s.observe(request: "CD /items", reply: Self.ok("/items"))
        s.observe(request: "FILTER favorites", reply: Self.ok("favorites"))
        s.observe(request: "FORMAT json", reply: Self.ok("json", json: true))
        s.observe(request: "WATCH cheap-items", reply: Self.ok(WatchAck(prefix: "/items/cheap-items", rev: 9).message))
        s.observe(
            request: "WATCH /orders FROM 3", reply: Self.ok(WatchAck(prefix: "/orders", rev: 9, replaying: 2).message))
        #expect(s.cwd == "/items")
        #expect(s.favoritesOnly)
        #expect(s.json)
        #expect(s.watches == ["/items/cheap-items", "/orders"])
        #expect(
            s.restoreRequests(after: 12) == [
                "FORMAT json", "CD /items", "FILTER favorites", "WATCH /items/cheap-items FROM 12",
                "WATCH /orders FROM 12",
            ])
        #expect(s.restoreRequests(after: nil).last == "WATCH /orders")
    }

    @Test func theNoticeThatTheCurrentPathWasRemovedMovesThePathAndIsNotPartOfIt() {
        var s = SessionTracker()
        s.observe(request: "CD /catalog/item-1", reply: Self.ok("/catalog/item-1"))
        s.observe(
            request: "PWD",
            reply: Self.ok("/catalog (your current path /catalog/item-1 was removed; you are now at /catalog)"))
        #expect(s.cwd == "/catalog")
        s.observe(request: "CD /catalog/item-2", reply: Self.ok("/catalog/item-2"))
        s.observe(
            request: "LS",
            reply: Self.ok("0 of 0 (your current path /catalog/item-2 was removed; you are now at /catalog)"))
        #expect(s.cwd == "/catalog")
        let refused = ServerReply(
            reply: DecodedReply(
                error: TabulaError(.notFound, "no x (your current path /catalog was removed; you are now at /)")),
            lines: [])
        s.observe(request: "SHOW x", reply: refused)
        #expect(s.cwd == "/")
    }

    @Test func aRefusedRequestTeachesNothing() {
        var s = SessionTracker()
        s.observe(
            request: "CD /nope",
            reply: ServerReply(
                reply: DecodedReply(error: TabulaError(.notFound, "no /nope")), lines: ["ERR NOTFOUND no /nope"]))
        #expect(s.cwd == "/")
    }

    @Test func unwatchForgetsOneWatchOrAll() {
        var s = SessionTracker()
        s.observe(request: "WATCH /items", reply: Self.ok(WatchAck(prefix: "/items", rev: 1).message))
        s.observe(request: "WATCH /menu", reply: Self.ok(WatchAck(prefix: "/menu", rev: 1).message))
        s.observe(request: "UNWATCH /items", reply: Self.ok("1 removed"))
        #expect(s.watches == ["/menu"])
        s.observe(request: "UNWATCH", reply: Self.ok("1 removed"))
        #expect(s.watches.isEmpty)
    }
}

/// Which typed lines stay out of the history.
@Suite struct HistorySecretTests {
    @Test func anAuthLineTaggedOrNotInAnyCaseHoldsASecret() {
        for line in ["AUTH alice s3cret", "#1 AUTH alice s3cret", "auth alice x", "#t\tAuth a b", "AUTH"] {
            #expect(Credentials.holdsSecret(line), "\(line)")
        }
        for line in ["PING AUTH", "#1 PING", "AUTHOR", "LS /items", ""] {
            #expect(!Credentials.holdsSecret(line), "\(line)")
        }
    }
}
