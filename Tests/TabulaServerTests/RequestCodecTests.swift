import Testing
import TabulaModel
import TabulaProtocol
@testable import TabulaServer

/// The codec registry's choice by first bytes, and RESP2's subscribe mode as the registry
/// reaches it (`Codec.refusal`, `Codec.settle`): pure rules, no sockets.
@Suite struct RequestCodecTests {
    static func opened(_ s: String) -> String? {
        Array(s.utf8).withUnsafeBytes { RequestCodecs.opened(by: $0).map { "\($0)" } }
    }

    @Test(arguments: ["*1\r\n$4\r\nPING\r\n", "*", "HELLO\r\n", "hello 3\n", "HeLlO 2 AUTH a b\r\n"])
    func aMultibulkRequestOrAnInlineHelloOpensRESP(first: String) {
        #expect(Self.opened(first) == "RESPExchange")
    }

    @Test(arguments: ["PING\n", "HELLOX\n", "HELLO", "", "#t1 PING\n", " *1\r\n", "LS /items\r\n"])
    func anythingElseIsTheLineProtocol(first: String) {
        #expect(Self.opened(first) == nil)
    }

    static func session(subscribed: Bool, format: WireFormat = .resp2) -> Session {
        var s = Session()
        s.format = format
        s.subscribed = subscribed
        return s
    }

    @Test func aSubscribedRESP2SessionMayAskOnlyTheVerbsTheTableAllowsWhileSubscribed() {
        let s = Self.session(subscribed: true)
        for v in Verb.allCases {
            guard case .success(let r)? = RequestParser.parse(Array(GeneratedLines.samples(v)[0].utf8)) else {
                continue
            }
            let refused = Codec.refusal(r.command, session: s) != nil
            #expect(refused == !r.command.traits.whileSubscribed, "\(v)")
        }
    }

    @Test func noOtherSessionIsRefusedByItsCodec() {
        for s in [
            Self.session(subscribed: false), Self.session(subscribed: true, format: .resp3),
            Self.session(subscribed: true, format: .text),
        ] {
            #expect(Codec.refusal(.ls(path: "/items", limit: nil, after: nil), session: s) == nil)
        }
    }

    @Test func aWatchThatSucceedsEntersSubscribeModeAndOneRefusedDoesNot() {
        var s = Self.session(subscribed: false)
        var refused = Execution(Reply(error: TabulaError(.notFound, "no /nope")))
        Codec.settle(&refused, of: .watch(prefix: "/nope", from: nil), session: &s)
        #expect(!s.subscribed)
        var ok = Execution(Reply(message: "watching /items"))
        Codec.settle(&ok, of: .watch(prefix: "/items", from: nil), session: &s)
        #expect(s.subscribed)
    }

    @Test func unwatchingTheLastPrefixLeavesSubscribeMode() {
        var s = Self.session(subscribed: true)
        var one = Execution(Reply(message: "1 removed"))
        one.outcome.reply.subscription = Reply.Subscription("unsubscribe", channel: "/a", count: 1)
        Codec.settle(&one, of: .unwatch(prefix: "/a"), session: &s)
        #expect(s.subscribed)
        var last = Execution(Reply(message: "1 removed"))
        last.outcome.reply.subscription = Reply.Subscription("unsubscribe", channel: "/b", count: 0)
        Codec.settle(&last, of: .unwatch(prefix: "/b"), session: &s)
        #expect(!s.subscribed)
    }

    @Test func pingInSubscribeModeIsAnsweredAsAnArrayOfPongAndItsText() {
        var s = Self.session(subscribed: true)
        var e = Execution(Reply(message: "hi"))
        Codec.settle(&e, of: .ping("hi"), session: &s)
        #expect(e.outcome.reply.rows.map(\.text) == ["pong", "hi"])
        var plain = Self.session(subscribed: false)
        var f = Execution(Reply(message: "PONG"))
        Codec.settle(&f, of: .ping(nil), session: &plain)
        #expect(f.outcome.reply.rows.isEmpty && f.outcome.reply.message == "PONG")
    }
}
