/// A connection of a helper (a replay reader, the listener) made on first use and made
/// again after it broke: the next call reconnects, so a PostgreSQL restart costs one error.
final class PGLazyConnection {
    private let conninfo: String
    private let name: String
    private let setup: (PGConnection) throws -> Void
    private var db: PGConnection?

    init(_ conninfo: String, name: String, setup: @escaping (PGConnection) throws -> Void = { _ in }) {
        self.conninfo = conninfo
        self.name = name
        self.setup = setup
    }

    /// The connection, connecting when there is none or it broke.
    func get() throws -> PGConnection {
        if let db, db.isUp { return db }
        db = nil
        let c = try PGConnection(conninfo, name: name)
        try setup(c)
        db = c
        return c
    }

    /// Forgets the connection (it broke in a way libpq has not noticed).
    func drop() { db = nil }
}
