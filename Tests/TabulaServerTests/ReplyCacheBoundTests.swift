import Testing
import TabulaProtocol

@testable import TabulaServer

/// The reply cache's memory is bounded in bytes as well as in entries.
@Suite struct ReplyCacheBoundTests {
    @Test func theCacheHoldsAtMostItsBytesAndKeepsNoReplyOverAQuarterOfThem() {
        var cache = ReplyCache(capacity: 1024, byteCapacity: 1_000)
        let session = Session()
        func key(_ n: Int) -> ReplyCache.Key {
            ReplyCache.key(Request(command: .ls(path: "/items", limit: 10, after: "\(n)")), session)
        }
        for n in 0..<100 {
            cache.store(key(n), revision: 1, bytes: [UInt8](repeating: 65, count: 200))
            #expect(cache.bytes <= 1_000)
        }
        #expect(cache.lookup(key(99), revision: 1)?.count == 200)
        cache.store(key(500), revision: 1, bytes: [UInt8](repeating: 65, count: 251))
        #expect(cache.lookup(key(500), revision: 1) == nil)
        cache.store(key(99), revision: 2, bytes: [UInt8](repeating: 65, count: 100))  // replaced, counted once
        #expect(cache.lookup(key(99), revision: 2)?.count == 100)
    }

    /// A read that moves a current path another client removed is neither answered from the
    /// cache nor cached: a hit said "you are now at …" and left the session where it was.
    @Test func aReaderWhosePathWasRemovedIsMovedThoughAnotherAskedTheSameFirst() throws {
        try withServer({ $0.ioThreads = 1 }) { s in
            let admin = try connect(s), a = try connect(s), b = try connect(s)
            #expect(try a.request("CD /catalog/item-1").isOK)
            #expect(try b.request("CD /catalog/item-1").isOK)
            #expect(try admin.request("RM /catalog/item-1").isOK)
            #expect(try a.request("LS").final.contains("you are now at /catalog"))
            #expect(try b.request("LS").final.contains("you are now at /catalog"))
            #expect(try b.request("PWD").final == "OK /catalog")  // moved by its LS, nothing more to say
        }
    }
}
