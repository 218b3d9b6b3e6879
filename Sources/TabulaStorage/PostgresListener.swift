import Glibc

/// Wakes a node when another commits: one `LISTEN` connection per node (not one per
/// client: NOTIFY slows with many listeners). A notification only wakes; the change table
/// is the truth, so a lost notification costs at most one poll interval.
final class PostgresListener: ChangeListener {
    private let connection: PGLazyConnection

    init(conninfo: String) {
        connection = PGLazyConnection(conninfo, name: "tabulad-follow") {
            try $0.exec("LISTEN \(PostgresStore.channel)")
        }
    }

    func next(timeoutMs: Int32) throws -> UInt64 {
        let db = try connection.get()
        var pfd = pollfd(fd: db.socket, events: Int16(POLLIN), revents: 0)
        if poll(&pfd, 1, timeoutMs) > 0 {
            guard db.consumeInput() else {
                connection.drop()
                throw StorageError("the PostgreSQL connection that follows the other nodes broke")
            }
            if let head = db.notifications().compactMap({ UInt64($0) }).max() { return head }
        }
        return UInt64(try db.exec(PostgresStore.durableHead).int(0, 0))
    }
}
