import CLinuxShims
import Glibc

/// Opens the listening socket.
enum Listener {
    /// A non-blocking listening socket on `host:port`, and the port it got; `flag` is the
    /// option that chose the port, for the message when it cannot be had.
    static func open(host: String, port: Int, flag: String = "--port") throws -> (Int32, Int) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST
        var res: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &res)
        guard rc == 0, let ai = res else {
            throw ServerError(
                "cannot use --bind \(host): \(String(cString: gai_strerror(rc))); give a numeric address such as 127.0.0.1 or 0.0.0.0"
            )
        }
        defer { freeaddrinfo(res) }
        let fd = socket(ai.pointee.ai_family, ai.pointee.ai_socktype, ai.pointee.ai_protocol)
        guard fd >= 0 else { throw ServerError("socket: \(String(cString: strerror(errno)))") }
        _ = tabula_set_reuseaddr(fd)
        guard bind(fd, ai.pointee.ai_addr, ai.pointee.ai_addrlen) == 0 else {
            let e = errno
            close(fd)
            let hint =
                e == EADDRINUSE
                ? "; another process has it (is tabulad already running?), or pick another with \(flag)" : ""
            throw ServerError("cannot listen on \(host):\(port) (\(flag)): \(String(cString: strerror(e)))\(hint)")
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
                    return sa.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        Int(UInt16(bigEndian: $0.pointee.sin6_port))
                    }
                }
                return sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin_port))
                }
            }
        }
        return (fd, actual)
    }
}

extension Listener {
    /// A non-blocking listening Unix socket at `path`, mode 0660 (owner and group). A socket
    /// left there by a server that is gone is replaced; anything else at `path` is refused.
    static func openUnix(path: String) throws -> Int32 {
        var st = stat()
        if lstat(path, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFSOCK else {
                throw ServerError(
                    "--unix \(path): a file that is not a socket is there; remove it or pick another path")
            }
            unlink(path)
        }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else {
            throw ServerError("--unix \(path): the path is too long for a socket (at most 107 bytes)")
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError("socket: \(String(cString: strerror(errno)))") }
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, chmod(path, 0o660) == 0, listen(fd, 1024) == 0, tabula_set_nonblocking(fd) == 0 else {
            let e = errno
            close(fd)
            throw ServerError(
                "cannot listen on --unix \(path): \(String(cString: strerror(e)))\(e == ENOENT ? "; its directory does not exist" : "")"
            )
        }
        return fd
    }
}

/// A server start-up failure with a message for the operator.
public struct ServerError: Error, CustomStringConvertible {
    /// What went wrong and what to do.
    public let description: String
    init(_ d: String) { description = d }
}
