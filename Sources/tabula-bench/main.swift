import CLinuxShims
import Foundation
import Glibc
import Synchronization
import TabulaCommandLine
import TabulaProtocol

let commandLine = CommandLineSpec(
    tool: "tabula-bench", summary: "load generator for tabulad, in the manner of redis-benchmark",
    usage: ["tabula-bench [options]"],
    options: [
        OptionSpec("-h", value: "HOST", help: "server address (default 127.0.0.1)"),
        OptionSpec("-p", value: "PORT", help: "server port (default 8228)"),
        OptionSpec("-c", value: "CLIENTS", help: "connections sending requests (default 50)"),
        OptionSpec("-n", value: "REQUESTS", help: "requests per test, over all connections (default 100000)"),
        OptionSpec("-P", value: "PIPELINE", help: "requests in flight per connection (default 1)"),
        OptionSpec(
            "-t", value: "TESTS",
            help:
                "comma-separated: ping,show,ls,select,add,fav,order,fanout\n(default ping,show,ls,select,add,fav,order)"
        ),
        OptionSpec(
            "--watchers", value: "N",
            help:
                "fanout: N connections WATCH /items while the clients ADD items\nstamped with the wall clock; reports deliveries per second and\nchange-to-delivery latency (default 100)"
        ),
        OptionSpec("--threads", value: "N", help: "client threads (default 1)"),
        OptionSpec("-T", value: "SECONDS", help: "hard time limit per test (default 60): a run never goes unbounded"),
        OptionSpec(
            "--csv",
            help:
                "print CSV: test,requests_per_sec,p50_ms,p90_ms,p99_ms,max_ms,errors,\ndeliveries_per_sec,delivery_p50_ms,delivery_p99_ms"
        ),
        OptionSpec("-q", help: "quiet: only the result lines"),
    ],
    epilogue: """
        The tests: ping = PING; show = SHOW /items/1; ls = LS /items/cheap-items LIMIT 10;
        select = SELECT /settings/my-int #k; add = ADD /items bench-k k%100; fav = FAV /items/1;
        order = ORDER pesto; fanout = ADD with N watchers.
        Latency runs from the write that carried a request to the read that completed its reply.
        """)

struct Options {
    var host = "127.0.0.1"
    var port = 8228
    var clients = 50
    var requests = 100_000
    var pipeline = 1
    var tests = ["ping", "show", "ls", "select", "add", "fav", "order"]
    var watchers = 100
    var threads = 1
    var seconds = 60.0
    var csv = false
    var quiet = false
}

func die(_ m: String, _ status: ExitStatus = .usage) -> Never {
    FileHandle.standardError.write(Data("tabula-bench: \(m)\n".utf8))
    exit(status.rawValue)
}

func parse() throws(UsageError) -> Options {
    let p = try commandLine.parseOrAnswer(Array(CommandLine.arguments.dropFirst()), version: Release.version)
    var o = Options()
    if let v = p.string("-h") { o.host = v }
    if let v = try p.int("-p", in: 1...65535) { o.port = v }
    if let v = try p.int("-c", in: 1...100_000) { o.clients = v }
    if let v = try p.int("-n", in: 1...Int.max) { o.requests = v }
    if let v = try p.int("-P", in: 1...1_000_000) { o.pipeline = v }
    if let v = p.string("-t") { o.tests = v.split(separator: ",").map(String.init) }
    if let v = try p.int("--watchers", in: 0...100_000) { o.watchers = v }
    if let v = try p.int("--threads", in: 1...256) { o.threads = v }
    if let v = try p.int("-T", in: 1...86_400) { o.seconds = Double(v) }
    o.csv = p.has("--csv")
    o.quiet = p.has("-q")
    let known = Set(["ping", "show", "ls", "select", "add", "fav", "order", "fanout"])
    for t in o.tests where !known.contains(t) {
        throw UsageError("unknown test '\(t)'; known: \(known.sorted().joined(separator: ","))")
    }
    return o
}

func nowNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

func wallMicros() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
}

func connectTo(_ host: String, _ port: Int) -> Int32 {
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = in_port_t(UInt16(port).bigEndian)
    guard inet_pton(AF_INET, host, &addr.sin_addr) == 1 else { die("-h takes an IPv4 address, not '\(host)'") }
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    let r = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard r == 0 else {
        die("cannot connect to \(host):\(port): \(String(cString: strerror(errno))); start tabulad first", .unavailable)
    }
    _ = tabula_set_nodelay(fd)
    return fd
}

/// Reads lines from a blocking socket until one is of a kind in `kinds` (set-up only).
func readUntil(_ fd: Int32, _ kinds: [WireDecoder.LineKind]) {
    var lines = LineDecoder(maxLine: 1 << 20)
    var b: UInt8 = 0
    while read(fd, &b, 1) == 1 {
        withUnsafeBytes(of: &b) { lines.append($0) }
        if case .line(let l)? = lines.next(), kinds.contains(WireDecoder.kind(of: l)) { return }
    }
    die("the server closed the connection during set-up", .unavailable)
}

/// One benchmark connection's state, driven by its thread's epoll loop.
final class BenchConnection {
    let fd: Int32
    let watcher: Bool
    var sendTimes: [UInt64] = []
    var sendHead = 0
    var lines = LineDecoder(maxLine: 1 << 24)
    var outbuf: [UInt8] = []
    init(fd: Int32, watcher: Bool) {
        self.fd = fd
        self.watcher = watcher
    }
}

final class Shared: @unchecked Sendable {
    let remaining: Atomic<Int>
    let completed = Atomic<Int>(0)
    let deadline: UInt64
    let requestFor: @Sendable (Int) -> [UInt8]
    /// The request, when it is the same every time (built once, not per request).
    let fixed: [UInt8]?
    init(total: Int, deadline: UInt64, fixed: [UInt8]?, requestFor: @escaping @Sendable (Int) -> [UInt8]) {
        remaining = Atomic(total)
        self.deadline = deadline
        self.fixed = fixed
        self.requestFor = requestFor
    }
}

struct ThreadResult: Sendable {
    var latencies: [UInt64] = []
    var errors = 0
    var deliveries = 0
    var deliveryLatencies: [UInt64] = []
    var lastReply: UInt64 = 0
    var lastDelivery: UInt64 = 0
}

/// Runs one thread's connections until every request is answered (or the deadline passes).
func runThread(_ conns: [BenchConnection], pipeline: Int, total: Int, expectedDeliveries: Int, shared: Shared)
    -> ThreadResult
{
    var result = ThreadResult()
    let ep = epollSet(conns)
    func claim() -> Int? {
        let r = shared.remaining.wrappingSubtract(1, ordering: .relaxed).newValue
        return r >= 0 ? total - r - 1 : nil
    }
    func send(_ c: BenchConnection, count: Int) {
        let now = nowNanos()
        for _ in 0..<count {
            guard let k = claim() else { break }
            if let f = shared.fixed { c.outbuf.append(contentsOf: f) } else { c.outbuf += shared.requestFor(k) }
            c.sendTimes.append(now)
        }
        guard !c.outbuf.isEmpty else { return }
        let n = c.outbuf.withUnsafeBytes { tabula_send(c.fd, $0.baseAddress, $0.count) }
        if n > 0 { c.outbuf.removeFirst(n) }
        if !c.outbuf.isEmpty {
            _ = tabula_epoll_mod(ep, c.fd, tabula_EPOLLIN | tabula_EPOLLOUT, UInt64(conns.firstIndex { $0 === c } ?? 0))
        }
    }
    for c in conns where !c.watcher { send(c, count: pipeline) }
    var events = [tabula_epoll_event](repeating: tabula_epoll_event(), count: 256)
    var buf = [UInt8](repeating: 0, count: 256 * 1024)
    let wantReplies = conns.contains { !$0.watcher }
    while true {
        let done = shared.completed.load(ordering: .relaxed) >= total
        if done && (result.deliveries >= expectedDeliveries || !conns.contains { $0.watcher }) { break }
        if nowNanos() > shared.deadline { break }
        if !wantReplies && result.deliveries >= expectedDeliveries { break }
        let n = tabula_epoll_wait(ep, &events, 256, 50)
        for i in 0..<Int(max(0, n)) {
            let c = conns[Int(events[i].data)]
            if events[i].events & tabula_EPOLLOUT != 0 { sendQueued(c, ep: ep, token: events[i].data) }
            guard events[i].events & (tabula_EPOLLIN | tabula_EPOLLHUP | tabula_EPOLLERR) != 0 else { continue }
            let r = buf.withUnsafeMutableBytes { read(c.fd, $0.baseAddress, $0.count) }
            if r <= 0 {
                if r == 0 || (errno != EAGAIN && errno != EINTR) {
                    die("the server closed a connection mid-run", .unavailable)
                }
                continue
            }
            let now = nowNanos()
            buf.withUnsafeBytes { c.lines.append(UnsafeRawBufferPointer(rebasing: $0[0..<r])) }
            let finished = consumeLines(c, now: now, into: &result)
            c.dropAnsweredSendTimes()
            if finished > 0 {
                result.lastReply = now
                shared.completed.wrappingAdd(finished, ordering: .relaxed)
                send(c, count: finished)
            }
        }
    }
    close(ep)
    return result
}

/// An epoll set of `conns`, non-blocking, each by its index.
func epollSet(_ conns: [BenchConnection]) -> Int32 {
    let ep = tabula_epoll_create()
    for (i, c) in conns.enumerated() {
        _ = tabula_set_nonblocking(c.fd)
        _ = tabula_epoll_add(ep, c.fd, tabula_EPOLLIN, UInt64(i))
    }
    return ep
}

extension BenchConnection {
    /// Forgets the send times of answered requests, a few thousand at a time.
    func dropAnsweredSendTimes() {
        guard sendHead > 4096 else { return }
        sendTimes.removeFirst(sendHead)
        sendHead = 0
    }
}

/// Sends what `c` still has queued; stops asking for EPOLLOUT once it is all out.
func sendQueued(_ c: BenchConnection, ep: Int32, token: UInt64) {
    guard !c.outbuf.isEmpty else { return }
    let w = c.outbuf.withUnsafeBytes { tabula_send(c.fd, $0.baseAddress, $0.count) }
    if w > 0 { c.outbuf.removeFirst(w) }
    if c.outbuf.isEmpty { _ = tabula_epoll_mod(ep, c.fd, tabula_EPOLLIN, token) }
}

/// Counts the complete lines `c` received: a reply completes a request (its latency noted),
/// a push to a watcher is a delivery (with its latency, from the stamp). Returns the replies.
func consumeLines(_ c: BenchConnection, now: UInt64, into result: inout ThreadResult) -> Int {
    var finished = 0
    while case .line(let line)? = c.lines.next() {
        switch WireDecoder.kind(of: line) {
        case .push where c.watcher:
            result.deliveries += 1
            result.lastDelivery = now
            if let stamp = benchStamp(line) {
                let w = wallMicros()
                result.deliveryLatencies.append(w > stamp ? (w - stamp) * 1000 : 0)
            }
        case .ok where !c.watcher, .error where !c.watcher:
            if WireDecoder.kind(of: line) == .error { result.errors += 1 }
            result.latencies.append(now - c.sendTimes[c.sendHead])
            c.sendHead += 1
            finished += 1
        default:
            break
        }
    }
    return finished
}

/// The stamp an event of the fan-out test carries: the first run of 16 digits after `bench-s`.
func benchStamp(_ line: ArraySlice<UInt8>) -> UInt64? {
    var j = line.startIndex
    while j + 16 < line.endIndex {
        if line[j] == UInt8(ascii: "s") && line[j + 1] >= 48 && line[j + 1] <= 57 {
            var v: UInt64 = 0
            var k = j + 1
            while k < line.endIndex && line[k] >= 48 && line[k] <= 57 {
                v = v * 10 + UInt64(line[k] - 48)
                k += 1
            }
            return k - j - 1 == 16 ? v : nil
        }
        j += 1
    }
    return nil
}

func percentile(_ sorted: [UInt64], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let i = min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)
    return Double(sorted[max(0, i)]) / 1e6
}

let o: Options
do {
    o = try parse()
} catch {
    die(error.message)
}
if o.csv {
    print("test,requests_per_sec,p50_ms,p90_ms,p99_ms,max_ms,errors,deliveries_per_sec,delivery_p50_ms,delivery_p99_ms")
}

for test in o.tests {
    let requestFor: @Sendable (Int) -> [UInt8]
    switch test {
    case "ping": requestFor = { _ in Array("PING\n".utf8) }
    case "show": requestFor = { _ in Array("SHOW /items/1\n".utf8) }
    case "ls": requestFor = { _ in Array("LS /items/cheap-items LIMIT 10\n".utf8) }
    case "select": requestFor = { k in Array("SELECT /settings/my-int #\(k % 4 + 1)\n".utf8) }
    case "add": requestFor = { k in Array("ADD /items bench-\(k) \(k % 100)\n".utf8) }
    case "fav": requestFor = { _ in Array("FAV /items/1\n".utf8) }
    case "order": requestFor = { _ in Array("ORDER pesto\n".utf8) }
    default:
        requestFor = { _ in
            let stamp = String(wallMicros())
            return Array(
                "ADD /items bench-s\(String(repeating: "0", count: max(0, 16 - stamp.count)) + stamp) 1\n".utf8)
        }
    }
    let watcherCount = test == "fanout" ? o.watchers : 0
    var conns: [BenchConnection] = []
    for _ in 0..<watcherCount {
        let fd = connectTo(o.host, o.port)
        let w = Array("WATCH /items\n".utf8)
        _ = w.withUnsafeBytes { tabula_send(fd, $0.baseAddress, $0.count) }
        readUntil(fd, [.ok, .error])
        conns.append(BenchConnection(fd: fd, watcher: true))
    }
    for _ in 0..<o.clients {
        let fd = connectTo(o.host, o.port)
        readUntil(fd, [.push])
        conns.append(BenchConnection(fd: fd, watcher: false))
    }
    let start = nowNanos()
    let constant = ["ping", "show", "ls", "fav", "order"].contains(test)
    let shared = Shared(
        total: o.requests, deadline: start + UInt64(o.seconds * 1e9), fixed: constant ? requestFor(0) : nil,
        requestFor: requestFor)
    // Deal connections out to threads round-robin.
    var groups = Array(repeating: [BenchConnection](), count: o.threads)
    for (i, c) in conns.enumerated() { groups[i % o.threads].append(c) }
    let results = Mutex([ThreadResult]())
    let group = DispatchGroup()
    for g in groups where !g.isEmpty {
        let expected = g.filter(\.watcher).count * o.requests
        group.enter()
        let conns = g
        let (pipeline, total) = (o.pipeline, o.requests)
        nonisolated(unsafe) let unsafeConns = conns
        Thread {
            let r = runThread(
                unsafeConns, pipeline: pipeline, total: total, expectedDeliveries: expected, shared: shared)
            results.withLock { $0.append(r) }
            group.leave()
        }.start()
    }
    group.wait()
    for c in conns { close(c.fd) }
    let all = results.withLock { $0 }
    let lat = all.flatMap(\.latencies).sorted()
    let dl = all.flatMap(\.deliveryLatencies).sorted()
    let end = all.map(\.lastReply).max() ?? nowNanos()
    let secs = Double(max(1, end - start)) / 1e9
    let rps = Double(lat.count) / secs
    let deliveries = all.map(\.deliveries).reduce(0, +)
    let dEnd = all.map(\.lastDelivery).max() ?? end
    let dps = deliveries > 0 ? Double(deliveries) / (Double(max(1, dEnd - start)) / 1e9) : 0
    let errors = all.map(\.errors).reduce(0, +)
    if lat.count < o.requests {
        FileHandle.standardError.write(
            Data("tabula-bench: \(test): only \(lat.count) of \(o.requests) replies within \(o.seconds)s\n".utf8))
    }
    if o.csv {
        print(
            String(
                format: "%@,%.0f,%.3f,%.3f,%.3f,%.3f,%d,%.0f,%.3f,%.3f", test, rps, percentile(lat, 0.5),
                percentile(lat, 0.9), percentile(lat, 0.99), percentile(lat, 1), errors, dps, percentile(dl, 0.5),
                percentile(dl, 0.99)))
    } else {
        var line = String(
            format: "%-7@ %10.0f req/s   p50 %.3f  p90 %.3f  p99 %.3f  max %.3f ms", test, rps, percentile(lat, 0.5),
            percentile(lat, 0.9), percentile(lat, 0.99), percentile(lat, 1))
        if errors > 0 { line += "   \(errors) errors" }
        if watcherCount > 0 {
            line += String(
                format: "\n        %10.0f deliveries/s to %d watchers   p50 %.3f  p99 %.3f ms", dps, watcherCount,
                percentile(dl, 0.5), percentile(dl, 0.99))
        }
        if !o.quiet { print("== \(test): \(o.requests) requests, \(o.clients) clients, pipeline \(o.pipeline)") }
        print(line)
    }
}
