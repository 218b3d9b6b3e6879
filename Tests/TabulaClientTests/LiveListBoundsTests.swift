import Foundation
import Glibc
import Synchronization
import Testing
import TabulaProtocol

@testable import TabulaClient

/// A `LiveList` against a server that sends without end: the copy stops at a stated size
/// (`ReplicaFeed.mostRows`) with a state that says so, and a line past `LiveList.mostLineBytes`
/// ends the connection, each over a real loopback socket to a hostile server.
@Suite(.serialized) struct LiveListBoundsTests {
    static func row(_ k: Int) -> String {
        #"{"push":"row","path":"/items/\#(k + 1)","value":{"type":"item","id":\#(k + 1),"name":"Row \#(k)","value":1,"favorite":false,"rev":0}}"#
    }

    @MainActor
    static func run(_ list: LiveList, until done: @escaping @MainActor (LiveList) -> Bool) async -> Bool {
        let task = Task { await list.run() }
        defer { task.cancel() }
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if done(list) { return true }
            try? await Task.sleep(nanoseconds: 10_000_000)  // a poll of the list's state, not a wait for it
        }
        return done(list)
    }

    @MainActor @Test func aSnapshotThatNeverEndsStopsTheCopyAtItsBoundAndSaysSo() async throws {
        let server = try HostileLineServer(flood: Self.row)
        // A bound of 2,000 rows here (the default, 100,000, is the same code: `ReplicaFeed`),
        // so that a loaded machine's main actor need not apply 100,000 rows first.
        let list = LiveList(path: "/items", endpoint: .tcp(host: "127.0.0.1", port: server.port), mostRows: 2_000)
        let stopped = await Self.run(list) { if case .stopped = $0.state { return true } else { return false } }
        #expect(stopped, "still \(list.state) after \(server.linesSent.load(ordering: .relaxed)) rows")
        guard case .stopped(let why) = list.state else { return }
        #expect(why.contains("more than 2000 rows"), "\(why)")
        #expect(list.replica.rowCount == 0, "what it held is let go")
    }

    @MainActor @Test func aLineLongerThanTheBoundEndsTheConnectionAndSaysWhy() async throws {
        let long = String(repeating: "x", count: LiveList.mostLineBytes + 1)
        let server = try HostileLineServer { _ in
            #"{"push":"row","path":"/items/1","value":{"type":"item","name":"\#(long)"}}"#
        }
        let list = LiveList(path: "/items", endpoint: .tcp(host: "127.0.0.1", port: server.port))
        let said = await Self.run(list) {
            if case .offline(let why) = $0.state { return why.contains("longer than \(LiveList.mostLineBytes)") }
            return false
        }
        #expect(said, "\(list.state)")
    }

    @Test func sectionHeadersWithoutEndStopTheFeedToo() {
        var feed = ReplicaFeed(path: "/items", mostRows: 500)
        _ = feed.connected(historyID: "h")
        _ = feed.takeReply(ok: true, message: "watching /items at rev 0; sending a snapshot")
        var stopped = false
        for k in 0..<2_000 where !stopped {
            let header = JSONValue.object([("type", .string("section")), ("name", .string("s\(k)"))])
            if case .stop = feed.take(.row(path: nil, Row(text: "", json: header))) { stopped = true }
        }
        #expect(stopped && feed.replica.sections.isEmpty)
    }

    @Test func theFeedStopsTakingRowsPastItsBound() {
        var feed = ReplicaFeed(path: "/items")
        _ = feed.connected(historyID: "h")
        _ = feed.takeReply(ok: true, message: "watching /items at rev 0; sending a snapshot")
        var stops = 0
        for k in 0...(ReplicaFeed.mostRows + 10) {
            let row = JSONValue.object([("type", .string("item")), ("id", .int(Int64(k)))])
            if case .stop = feed.take(.row(path: "/items/\(k)", Row(text: "", json: row))) { stops += 1 }
        }
        #expect(stops == 1, "told once")
        #expect(feed.replica.rowCount == 0)
        guard case .tooLarge = feed.phase else {
            Issue.record("\(feed.phase)")
            return
        }
    }
}

/// A server on loopback that greets, answers the first WATCH with a snapshot's reply and
/// then writes what `flood` makes, line after line, until the client goes.
final class HostileLineServer: Sendable {
    let port: Int
    private let listener: Int32
    let linesSent = Atomic<Int>(0)

    init(flood: @escaping @Sendable (Int) -> String) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        listen(listener, 4)
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &len) }
        }
        port = Int(UInt16(bigEndian: addr.sin_port))
        let fd = listener
        Thread.detachNewThread {
            let c = accept(fd, nil, nil)
            guard c >= 0 else { return }
            defer { close(c) }
            func write(_ s: String) -> Bool {
                let bytes = Array((s + "\n").utf8)
                var off = 0
                while off < bytes.count {
                    let n = bytes[off...].withUnsafeBytes { send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if n <= 0 { return false }
                    off += n
                }
                return true
            }
            guard write("* HELLO tabula 3 rev=0 id=hostile server=hostile/1") else { return }
            var buffer = [UInt8](repeating: 0, count: 4096)
            var got = ""
            while !got.contains("WATCH") {
                let n = recv(c, &buffer, buffer.count, 0)
                if n <= 0 { return }
                got += String(decoding: buffer[0..<n], as: UTF8.self)
            }
            guard write(#"{"ok":true,"message":"json","data":[]}"#),
                write(#"{"ok":true,"message":"watching /items at rev 0; sending a snapshot","data":[]}"#)
            else { return }
            var k = 0
            while write(flood(k)) {
                k += 1
                self.linesSent.add(1, ordering: .relaxed)
            }
        }
    }

    deinit { close(listener) }
}
