import Foundation
import Glibc
import Synchronization

/// A TCP proxy on a loopback port that forwards to `target` and, while `cutting`, closes a
/// random one of its connections every 50–500 ms: a network that drops clients at random.
public final class CuttingProxy: @unchecked Sendable {
    public let port: Int
    private let listener: Int32
    private let lock = NSLock()  // a pthread mutex, which the thread sanitizer sees
    private var targetPort: Int
    private var open: [(Int32, Int32)] = []
    public let cutting = Atomic<Bool>(true)
    public let cuts = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)

    public init(target: Int) throws {
        targetPort = target
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        a.sin_port = 0
        let made = withUnsafePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard made == 0, listen(listener, 128) == 0 else { throw POSIXError(.EADDRINUSE) }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &len) }
        }
        let bound = Int(UInt16(bigEndian: a.sin_port))
        port = bound
        Thread.detachNewThread { [self] in acceptLoop() }
        Thread.detachNewThread { [self] in cutLoop() }
    }

    /// Forwards new connections to another port (a restarted server's).
    public func retarget(_ port: Int) { locked { targetPort = port } }

    private func locked<R>(_ body: () -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// Closes every connection now.
    public func cutAll() {
        for (a, b) in locked({ () -> [(Int32, Int32)] in
            defer { open.removeAll() }; return open
        }) {
            shutdown(a, Int32(SHUT_RDWR))
            shutdown(b, Int32(SHUT_RDWR))
        }
    }

    public func stop() {
        stopped.store(true, ordering: .relaxed)
        shutdown(listener, Int32(SHUT_RDWR))
        cutAll()
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_addr.s_addr = inet_addr("127.0.0.1")
            a.sin_port = UInt16(locked { targetPort }).bigEndian
            let ok = withUnsafePointer(to: &a) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard ok == 0 else {
                close(client)
                close(server)
                continue
            }
            locked { open.append((client, server)) }
            Thread.detachNewThread { [self] in pump(client, server) }
        }
    }

    /// Copies both ways until either side ends, then closes both.
    private func pump(_ a: Int32, _ b: Int32) {
        var buf = [UInt8](repeating: 0, count: 65536)
        var fds = [pollfd(fd: a, events: Int16(POLLIN), revents: 0), pollfd(fd: b, events: Int16(POLLIN), revents: 0)]
        loop: while poll(&fds, 2, 1000) >= 0 {
            for (i, f) in fds.enumerated() where f.revents != 0 {
                let n = read(f.fd, &buf, buf.count)
                guard n > 0, write(fds[1 - i].fd, buf, n) == n else { break loop }
            }
        }
        locked { open.removeAll { $0.0 == a } }
        close(a)
        close(b)
    }

    private func cutLoop() {
        var g = SystemRandomNumberGenerator()
        while !stopped.load(ordering: .relaxed) {
            usleep(UInt32.random(in: 50_000...500_000, using: &g))
            guard cutting.load(ordering: .relaxed), let (a, b) = locked({ open.randomElement() }) else { continue }
            shutdown(a, Int32(SHUT_RDWR))
            shutdown(b, Int32(SHUT_RDWR))
            cuts.add(1, ordering: .relaxed)
        }
    }
}
