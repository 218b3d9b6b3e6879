import Testing
import TabulaProtocol

@testable import TabulaServer

/// A run of events is encoded once per format, and for RESP framed once per channel and
/// version: every subscriber of a prefix gets the same bytes, naming its own channel.
@Suite struct EventRunTests {
    static let e = Event(rev: 7, kind: "order", path: "/orders/1", summary: "x", value: .int(1))

    @Test func everyRESPSubscriberGetsTheEventOnItsOwnChannelInItsOwnVersion() {
        var formats = FormatSet(.resp2)
        formats.insert(FormatSet(.resp3))
        var run = EventRun(formats: formats)
        run.append(Self.e)
        for (format, channel) in [
            (WireFormat.resp2, "/orders"), (.resp3, "/orders"), (.resp2, "/"), (.resp2, "/orders"), (.resp3, "/"),
        ] {
            var want: [UInt8] = []
            RESPEncoder.event(Self.e, channel: channel, resp3: format == .resp3, into: &want)
            #expect(run.bytes(for: format, channel: channel) == want, "\(format) \(channel)")
        }
    }

    @Test func pastItsFramingsKeptARunStillFramesEachChannelRight() {
        var run = EventRun(formats: FormatSet(.resp2))
        run.append(Self.e)
        for i in 0..<(EventRun.mostFramings + 4) {
            var want: [UInt8] = []
            RESPEncoder.event(Self.e, channel: "/c\(i)", resp3: false, into: &want)
            #expect(run.bytes(for: .resp2, channel: "/c\(i)") == want)
        }
    }
}
