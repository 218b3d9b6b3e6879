import TabulaHTTP
import TabulaProtocol

/// An HTTP request's reply inside the server: the request pipeline writes it for an HTTP
/// connection as a record (its error code, its message and its JSON body, each length-
/// prefixed), which `EventLoopHTTP` turns into the response: the status comes from the code,
/// so nothing reads the JSON back, and records, not lines, say where a reply ends.
enum HTTPAPICodec {
    /// One reply, read back from the records the pipeline wrote.
    struct Record: Equatable {
        /// Nil for a reply that succeeded.
        let code: ErrorCode?
        let message: String
        /// The line protocol's JSON object of the reply, with its newline.
        let body: [UInt8]

        /// The response status the reply calls for.
        var status: HTTPStatus { code.map(HTTPStatus.init(code:)) ?? .ok }
    }

    static func reply(_ reply: Reply, tag: String?, into out: inout [UInt8]) {
        var body: [UInt8] = []
        WireEncoder.encode(reply, tag: tag, format: .json, into: &body)
        field(Array((reply.error?.code.rawValue ?? "").utf8), into: &out)
        field(Array((reply.error?.message ?? "").utf8), into: &out)
        field(body, into: &out)
    }

    /// The records in `bytes` (whole ones: the pipeline hands over whole replies).
    static func records(_ bytes: [UInt8]) -> [Record] {
        var out: [Record] = []
        var i = 0
        while let code = next(bytes, &i), let message = next(bytes, &i), let body = next(bytes, &i) {
            out.append(
                Record(
                    code: code.isEmpty ? nil : ErrorCode(rawValue: String(decoding: code, as: UTF8.self)) ?? .syntax,
                    message: String(decoding: message, as: UTF8.self), body: Array(body)))
        }
        assert(i == bytes.count, "an HTTP connection was handed bytes that are not whole reply records")
        return out
    }

    private static func field(_ bytes: [UInt8], into out: inout [UInt8]) {
        let n = UInt32(bytes.count)
        out += [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
        out += bytes
    }

    private static func next(_ bytes: [UInt8], _ i: inout Int) -> ArraySlice<UInt8>? {
        guard i + 4 <= bytes.count else { return nil }
        let n = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
        guard i + 4 + n <= bytes.count else { return nil }
        defer { i += 4 + n }
        return bytes[(i + 4)..<(i + 4 + n)]
    }
}
