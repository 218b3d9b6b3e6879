import Foundation
import Glibc

/// A reply as a RESP client reads it.
indirect enum RV: Equatable, CustomStringConvertible {
    case simple(String), error(String), integer(Int), bulk(String), null, bool(Bool), double(String)
    case array([RV]), map([RV]), set([RV]), push([RV])

    var description: String {
        switch self {
        case .simple(let s): return "+\(s)"
        case .error(let s): return "-\(s)"
        case .integer(let n): return ":\(n)"
        case .bulk(let s): return "\"\(s)\""
        case .null: return "nil"
        case .bool(let b): return "\(b)"
        case .double(let d): return d
        case .array(let a): return "[\(a.map(\.description).joined(separator: ", "))]"
        case .map(let a): return "%[\(a.map(\.description).joined(separator: ", "))]"
        case .set(let a): return "~[\(a.map(\.description).joined(separator: ", "))]"
        case .push(let a): return ">[\(a.map(\.description).joined(separator: ", "))]"
        }
    }

    /// The value at `key` of a map (RESP3) or of a flat key/value array (RESP2).
    subscript(key: String) -> RV? {
        let flat: [RV]
        switch self {
        case .map(let a), .array(let a): flat = a
        default: return nil
        }
        var i = 0
        while i + 1 < flat.count {
            if flat[i] == .bulk(key) { return flat[i + 1] }
            i += 2
        }
        return nil
    }
}

/// A RESP client over a real socket, written apart from the server's codec: sends
/// multibulk requests, reads whole replies.
final class RESPTestClient {
    let fd: Int32
    private var buffer: [UInt8] = []
    private var at = 0

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(fd) }

    static func encode(_ words: [String]) -> [UInt8] {
        var out = Array("*\(words.count)\r\n".utf8)
        for w in words { out += Array("$\(w.utf8.count)\r\n".utf8) + Array(w.utf8) + [13, 10] }
        return out
    }

    func sendRaw(_ bytes: [UInt8]) {
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            off += n
        }
    }

    func send(_ words: String...) { sendRaw(RESPTestClient.encode(words)) }

    /// Sends one request and reads its reply.
    func call(_ words: String..., timeout: Double = 10) throws -> RV {
        sendRaw(RESPTestClient.encode(words))
        return try read(timeout: timeout)
    }

    /// The next whole reply; throws on timeout or a closed socket.
    func read(timeout: Double = 10) throws -> RV {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            var i = at
            if let v = parse(&i) {
                at = i
                if at > 65536 { buffer.removeFirst(at); at = 0 }
                return v
            }
            guard fill(until: deadline) else { throw POSIXError(.ETIMEDOUT) }
        }
    }

    /// Whether the server closed the connection (after what it sent is read), by `timeout`.
    func closedByServer(timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 50) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { return true }
            buffer += chunk[0..<n]
        }
        return false
    }

    /// The bytes received and not yet read as replies.
    var unread: [UInt8] { Array(buffer[at...]) }

    /// Everything received up to and including `marker` (waiting for it), as text, consumed.
    func take(through marker: String, timeout: Double = 10) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let text = String(decoding: buffer[at...], as: UTF8.self)
            if let r = text.range(of: marker) {
                at = buffer.count
                return String(text[..<r.upperBound])
            }
            guard fill(until: deadline) else { throw POSIXError(.ETIMEDOUT) }
        }
    }

    /// Reads what arrives within `timeout`, into the buffer; false on timeout or close.
    func fill(until deadline: Date) -> Bool {
        let ms = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, ms) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &chunk, chunk.count, 0)
        guard n > 0 else { return false }
        buffer += chunk[0..<n]
        return true
    }

    private func line(_ i: inout Int) -> String? {
        var j = i
        while j + 1 < buffer.count && !(buffer[j] == 13 && buffer[j + 1] == 10) { j += 1 }
        guard j + 1 < buffer.count else { return nil }
        let s = String(decoding: buffer[i..<j], as: UTF8.self)
        i = j + 2
        return s
    }

    private func parse(_ i: inout Int) -> RV? {
        guard i < buffer.count else { return nil }
        let type = buffer[i]
        var j = i + 1
        guard let head = line(&j) else { return nil }
        func many(_ n: Int, _ make: ([RV]) -> RV) -> RV? {
            var items: [RV] = []
            for _ in 0..<n {
                guard let v = parse(&j) else { return nil }
                items.append(v)
            }
            return make(items)
        }
        let result: RV?
        switch type {
        case UInt8(ascii: "+"): result = .simple(head)
        case UInt8(ascii: "-"): result = .error(head)
        case UInt8(ascii: ":"): result = .integer(Int(head) ?? 0)
        case UInt8(ascii: "_"): result = .null
        case UInt8(ascii: "#"): result = .bool(head == "t")
        case UInt8(ascii: ","): result = .double(head)
        case UInt8(ascii: "$"):
            let n = Int(head) ?? -1
            if n < 0 { result = .null; break }
            guard j + n + 2 <= buffer.count else { return nil }
            result = .bulk(String(decoding: buffer[j..<(j + n)], as: UTF8.self))
            j += n + 2
        case UInt8(ascii: "*"): result = (Int(head) ?? -1) < 0 ? .null : many(Int(head)!, RV.array)
        case UInt8(ascii: "%"): result = many(2 * (Int(head) ?? 0), RV.map)
        case UInt8(ascii: "~"): result = many(Int(head) ?? 0, RV.set)
        case UInt8(ascii: ">"): result = many(Int(head) ?? 0, RV.push)
        default: result = .error("UNPARSEABLE \(String(decoding: buffer[i...].prefix(80), as: UTF8.self))")
        }
        guard let result else { return nil }
        i = j
        return result
    }
}
