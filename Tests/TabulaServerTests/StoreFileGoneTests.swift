import Foundation
import Testing
import TabulaClient
import TabulaServer
import TabulaStorage

/// A store whose file is removed or replaced under a running server refuses to acknowledge
/// writes it can no longer keep; reads go on.
@Suite struct StoreFileGoneTests {
    @Test func removingTheDatabaseFileMakesTheNextWriteFailWithStorageError() throws {
        let path = tempDB()
        try withServer(store: try SQLiteStore(path: path)) { s in
            let c = try connect(s)
            #expect(try c.request("ORDER pesto").isOK)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            let r = try c.request("ORDER gelato")
            #expect(r.reply.error?.code == .storage)
            #expect(r.reply.error?.message.contains("was removed while tabulad was running") == true, "\(r.final)")
            #expect(try c.request("LS /orders").data.count == 1, "reads go on from memory, without the refused write")
            #expect(
                try c.request("ORDER tiramisu").reply.error?.code == .storage, "and every later write is refused too")
        }
    }

    @Test func aFileReplacedByAnotherServersMakesWritesFailHereInsteadOfTwoServersAcknowledging() throws {
        let path = tempDB()
        try withServer(store: try SQLiteStore(path: path)) { s in
            let c = try connect(s)
            #expect(try c.request("ORDER pesto").isOK)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            let other = try SQLiteStore(path: path)  // a second server on the re-created path gets the lock
            defer { other.close() }
            let r = try c.request("ORDER gelato")
            #expect(r.reply.error?.message.contains("was replaced by another file") == true, "\(r.final)")
        }
    }
}
