import Foundation
import Glibc

/// A plain HTTP/1.1 client over a real loopback socket, for the HTTP tests: sends bytes as
/// given (pipelined, malformed, slow) and reads responses back by their Content-Length.
final class HTTPTestClient {
    struct Response {
        let status: Int
        let headers: [String: String]
        let body: String
    }

    let fd: Int32
    private(set) var buffer: [UInt8] = []
    private(set) var closed = false

    init(port: Int, host: String = "127.0.0.1") throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = UInt16(port).bigEndian
        addr.sin_addr.s_addr = inet_addr(host)
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(fd) }

    /// The body of an event stream as read so far (`raw`: its head and body), as an SSE reader
    /// sees it: a chunked body's chunks joined, their framing dropped (an unfinished last chunk
    /// kept as far as it came).
    static func sseBody(_ raw: String) -> String {
        let bytes = Array(raw.utf8)
        guard
            let end = (0..<max(0, bytes.count - 3)).first(where: {
                bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10
            })
        else { return "" }
        let head = String(decoding: bytes[..<end], as: UTF8.self).lowercased()
        var i = end + 4
        guard head.contains("transfer-encoding: chunked") else { return String(decoding: bytes[i...], as: UTF8.self) }
        var body: [UInt8] = []
        while i < bytes.count,
            let lineEnd = (i..<bytes.count - 1).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }),
            let size = Int(String(decoding: bytes[i..<lineEnd], as: UTF8.self), radix: 16), size > 0
        {
            let start = lineEnd + 2
            body += bytes[start..<min(bytes.count, start + size)]
            i = start + size + 2
        }
        return String(decoding: body, as: UTF8.self)
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            off += n
        }
    }

    /// `GET path` with the given extra headers, and its response.
    func get(_ path: String, headers: [String] = [], timeout: Double = 10) throws -> Response {
        send("GET \(path) HTTP/1.1\r\nHost: localhost\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n")
        return try response(timeout: timeout)
    }

    /// `POST /api/VERB` with `{"args": args}` and the given extra headers, and its response.
    func post(_ verb: String, _ args: [String], headers: [String] = [], timeout: Double = 10) throws -> Response {
        let body =
            "{\"args\": ["
            + args.map {
                "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                    + "\""
            }.joined(separator: ", ") + "]}"
        send(
            "POST /api/\(verb) HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                + headers.map { $0 + "\r\n" }.joined() + "\r\n" + body)
        return try response(timeout: timeout)
    }

    /// Reads more bytes, waiting up to `timeout`; false on timeout or close.
    @discardableResult
    func fill(timeout: Double) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(timeout * 1000)) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &chunk, chunk.count, 0)
        if n <= 0 {
            closed = true
            return false
        }
        buffer += chunk[0..<n]
        return true
    }

    /// The next response, whole.
    func response(timeout: Double = 10) throws -> Response {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let r = takeResponse() { return r }
            guard fill(timeout: max(0, deadline.timeIntervalSinceNow)) else {
                throw POSIXError(closed ? .ECONNRESET : .ETIMEDOUT)
            }
        }
    }

    /// Waits until the received bytes (after any response taken) contain `text`; all of them.
    func waitFor(_ text: String, timeout: Double = 10) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let s = String(decoding: buffer, as: UTF8.self)
            if s.contains(text) { return s }
            guard fill(timeout: max(0, deadline.timeIntervalSinceNow)) else {
                throw POSIXError(closed ? .ECONNRESET : .ETIMEDOUT)
            }
        }
    }

    /// Whether the server closed the connection within `timeout` (reading what comes first).
    func closesWithin(_ timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !closed && deadline.timeIntervalSinceNow > 0 { fill(timeout: deadline.timeIntervalSinceNow) }
        return closed
    }

    private func takeResponse() -> Response? {
        let marker: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, buffer.count - 3)).first(where: { Array(buffer[$0..<$0 + 4]) == marker }) else {
            return nil
        }
        let head = String(decoding: buffer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        guard buffer.count >= end + 4 + length else { return nil }
        let body = String(decoding: buffer[(end + 4)..<(end + 4 + length)], as: UTF8.self)
        buffer.removeFirst(end + 4 + length)
        let status = Int(head[0].split(separator: " ").dropFirst().first ?? "") ?? 0
        return Response(status: status, headers: headers, body: body)
    }
}
