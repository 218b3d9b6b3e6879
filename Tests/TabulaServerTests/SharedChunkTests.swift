import Testing

@testable import TabulaServer

/// An event stream's chunk is made once for every stream sent the same bytes.
@Suite struct SharedChunkTests {
    static func start(_ b: [UInt8]) -> UnsafeRawPointer? { b.withUnsafeBytes { $0.baseAddress } }

    @Test func theSameBytesSentToManyStreamsAreFramedOnceAndShared() {
        var shared = SharedChunk()
        let event = Array("id: 7\ndata: {\"push\":\"event\",\"rev\":7}\n\n".utf8)
        let first = shared.framing(event), second = shared.framing(event)
        #expect(first == Array("\(String(event.count, radix: 16))\r\n".utf8) + event + [13, 10])
        #expect(Self.start(first) == Self.start(second))
    }

    @Test func otherBytesOfTheSameLengthAreFramedAnew() {
        var shared = SharedChunk()
        let a = Array("data: a\n\n".utf8), b = Array("data: b\n\n".utf8)
        #expect(shared.framing(a) == Array("9\r\n".utf8) + a + [13, 10])
        #expect(shared.framing(b) == Array("9\r\n".utf8) + b + [13, 10])
        #expect(shared.framing(a) == Array("9\r\n".utf8) + a + [13, 10])
    }
}
