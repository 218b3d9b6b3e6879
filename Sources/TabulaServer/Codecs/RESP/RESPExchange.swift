import TabulaProtocol

/// The RESP codec's state on a connection whose first request was multibulk or HELLO.
final class RESPExchange {
    var decoder: RESPDecoder
    /// RESP3, as of the requests decoded so far (HELLO switches it, and its answer and the
    /// session's format follow in order).
    var resp3 = false
    /// `CLIENT SETNAME` or `HELLO … SETNAME`: shown in CLIENTS and /clients.
    var name: String?
    /// The stream's framing was lost: nothing more is read.
    var failed = false

    init(maxRequest: Int, unauthenticated: Bool) {
        decoder = RESPDecoder(maxRequest: maxRequest, unauthenticated: unauthenticated)
    }

    /// Whether the first bytes a connection sends are RESP: a multibulk request, or an
    /// inline HELLO (Tabula's own lines never start with `*`, and HELLO is not a verb).
    static func opens(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let first = bytes.first else { return false }
        if first == UInt8(ascii: "*") { return true }
        let hello = Array("HELLO".utf8)
        guard bytes.count > hello.count else { return false }
        for i in hello.indices where bytes[i] & 0xDF != hello[i] { return false }
        let after = bytes[hello.count]
        return after == 32 || after == 13 || after == 10
    }
}
