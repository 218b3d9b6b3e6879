import TabulaProtocol
@testable import TabulaServer

/// The RESP framing: the same bytes read whole and cut in three give the same requests, a
/// fatal error is last, and a request in progress never holds more than its bound.
func fuzzRESP(_ bytes: UnsafeRawBufferPointer) {
    for unauthenticated in [false, true] {
        var whole = RESPDecoder(maxRequest: maxLine, unauthenticated: unauthenticated)
        whole.append(bytes)
        let all = respRequests(&whole)
        var cut = RESPDecoder(maxRequest: maxLine, unauthenticated: unauthenticated)
        var pieces: [RESPRequest] = []
        let a = bytes.count / 3, b = 2 * bytes.count / 3
        for r in [0..<a, a..<b, b..<bytes.count] {
            cut.append(UnsafeRawBufferPointer(rebasing: bytes[r]))
            pieces += respRequests(&cut)
            // A header line or inline request may sit whole before its newline, plus the
            // elements read so far: at most twice the bound, and one read's bytes.
            precondition(
                cut.bufferedCount <= 2 * maxLine + bytes.count, "a request in progress holds \(cut.bufferedCount) bytes"
            )
        }
        precondition(all == pieces, "cut in three, the bytes decode otherwise: \(all) vs \(pieces)")
        for (i, r) in all.enumerated() {
            if case .fatal = r { precondition(i == all.count - 1, "a fatal error that is not last") }
            if case .multibulk(let words) = r, unauthenticated {
                precondition(
                    words.count <= RequestGate.preLoginElements
                        && words.allSatisfy { $0.count <= RequestGate.preLoginElementBytes },
                    "past the pre-login bounds")
            }
        }
    }
}

private func respRequests(_ d: inout RESPDecoder) -> [RESPRequest] {
    var out: [RESPRequest] = []
    while let r = d.next() { out.append(r) }
    return out
}
