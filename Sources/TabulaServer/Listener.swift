import CLinuxShims
import Glibc

/// Opens the listening socket.
enum Listener {
    /// A non-blocking listening socket on `host:port`, and the port it got.
    static func open(host: String, port: Int) throws -> (Int32, Int) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST
        var res: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &res)
        guard rc == 0, let ai = res else {
            throw ServerError("cannot use --bind \(host): \(String(cString: gai_strerror(rc))); give a numeric address such as 127.0.0.1 or 0.0.0.0")
        }
        defer { freeaddrinfo(res) }
        let fd = socket(ai.pointee.ai_family, ai.pointee.ai_socktype, ai.pointee.ai_protocol)
        guard fd >= 0 else { throw ServerError("socket: \(String(cString: strerror(errno)))") }
        _ = tabula_set_reuseaddr(fd)
        guard bind(fd, ai.pointee.ai_addr, ai.pointee.ai_addrlen) == 0 else {
            let e = errno
            close(fd)
            let hint = e == EADDRINUSE ? "; another process has it (is tabulad already running?), or pick one with --port" : ""
            throw ServerError("cannot listen on \(host):\(port): \(String(cString: strerror(e)))\(hint)")
        }
        guard listen(fd, 1024) == 0, tabula_set_nonblocking(fd) == 0 else {
            close(fd)
            throw ServerError("listen: \(String(cString: strerror(errno)))")
        }
        var ss = sockaddr_storage()
        var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let actual = withUnsafeMutablePointer(to: &ss) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa -> Int in
                guard getsockname(fd, sa, &len) == 0 else { return port }
                if sa.pointee.sa_family == sa_family_t(AF_INET6) {
                    return sa.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
                }
                return sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            }
        }
        return (fd, actual)
    }
}

/// A server start-up failure with a message for the operator.
public struct ServerError: Error, CustomStringConvertible {
    /// What went wrong and what to do.
    public let description: String
    init(_ d: String) { description = d }
}
