import CLibPQ
import Foundation

/// A thin, throwing wrapper over one libpq connection. One thread uses it at a time.
final class PGConnection {
    private var conn: OpaquePointer?

    /// Connects. `conninfo` is a libpq connection string or URI (empty: the `PG*`
    /// environment variables alone); it may override the defaults set here: a 3 s connect
    /// timeout and TCP keepalives and a 5 s user timeout, so a server that vanishes is noticed
    /// in seconds rather than hours.
    init(_ conninfo: String, name: String) throws {
        let defaults: [(String, String)] = [
            ("connect_timeout", "3"), ("keepalives_idle", "5"), ("keepalives_interval", "2"),
            ("keepalives_count", "2"), ("tcp_user_timeout", "5000"), ("application_name", name),
            ("dbname", conninfo),
        ]
        // Later keywords win, so the caller's string (last, expanded) overrides the defaults.
        let keys = defaults.map { strdup($0.0) } + [nil]
        let values = defaults.map { strdup($0.1) } + [nil]
        defer { (keys + values).forEach { free($0) } }
        let c = keys.map { UnsafePointer($0) }.withUnsafeBufferPointer { k in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { v in PQconnectdbParams(k.baseAddress, v.baseAddress, 1) }
        }
        guard let c, PQstatus(c) == CONNECTION_OK else {
            let msg = c.map { PGConnection.clean(String(cString: PQerrorMessage($0))) } ?? "out of memory"
            if let c { PQfinish(c) }
            throw StorageError("cannot connect to PostgreSQL (\(msg)); check --postgres and that the server runs")
        }
        conn = c
        PQsetNoticeProcessor(c, { _, _ in }, nil)  // notices (e.g. "relation exists") are not errors
    }

    deinit { close() }

    /// Closes the connection.
    func close() {
        if let conn { PQfinish(conn) }
        conn = nil
    }

    /// Whether the connection is up (as libpq last saw it).
    var isUp: Bool { conn.map { PQstatus($0) == CONNECTION_OK } ?? false }

    /// The socket, for waiting on notifications.
    var socket: Int32 { conn.map { PQsocket($0) } ?? -1 }

    /// Runs SQL text (one statement or several; the result of the last is returned).
    @discardableResult
    func exec(_ sql: String) throws -> PGResult {
        guard let conn else { throw StorageError("the PostgreSQL connection is closed") }
        return try check(PQexec(conn, sql))
    }

    /// Runs SQL text of several statements and returns every statement's result, in one
    /// round trip (each statement sees what committed before it started).
    func execEach(_ sql: String) throws -> [PGResult] {
        guard let conn else { throw StorageError("the PostgreSQL connection is closed") }
        guard PQsendQuery(conn, sql) == 1 else { throw StorageError("PostgreSQL: \(PGConnection.clean(String(cString: PQerrorMessage(conn))))") }
        var out: [PGResult] = []
        var failure: Error?
        while let r = PQgetResult(conn) {
            do { out.append(try check(r)) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
        return out
    }

    /// Runs SQL built as bytes.
    @discardableResult
    func exec(_ sql: SQLText) throws -> PGResult {
        guard let conn else { throw StorageError("the PostgreSQL connection is closed") }
        return try check(sql.withCString { PQexec(conn, $0) })
    }

    /// Runs one statement with text parameters ($1, $2, …; nil is NULL).
    @discardableResult
    func exec(_ sql: String, _ params: [String?]) throws -> PGResult {
        guard let conn else { throw StorageError("the PostgreSQL connection is closed") }
        let copies = params.map { $0.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        let r = copies.map { UnsafePointer($0) }.withUnsafeBufferPointer {
            PQexecParams(conn, sql, Int32(params.count), nil, $0.baseAddress, nil, nil, 0)
        }
        return try check(r)
    }

    private func check(_ r: OpaquePointer?) throws -> PGResult {
        guard let r else { throw StorageError("PostgreSQL: \(PGConnection.clean(String(cString: PQerrorMessage(conn))))") }
        let status = PQresultStatus(r)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let msg = PGConnection.clean(String(cString: PQresultErrorMessage(r)))
            let state = PQresultErrorField(r, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            PQclear(r)
            throw PGError(sqlState: state, message: "PostgreSQL: \(msg.isEmpty ? PGConnection.clean(String(cString: PQerrorMessage(conn))) : msg)")
        }
        return PGResult(r)
    }

    /// Reads what arrived on the socket; false when the connection broke.
    func consumeInput() -> Bool {
        guard let conn else { return false }
        return PQconsumeInput(conn) == 1
    }

    /// The payloads of the notifications that arrived (after `consumeInput`).
    func notifications() -> [String] {
        guard let conn else { return [] }
        var out: [String] = []
        while let n = PQnotifies(conn) {
            out.append(String(cString: n.pointee.extra))
            PQfreemem(n)
        }
        return out
    }

    /// libpq's messages end in a line break and may span lines: one line.
    static func clean(_ s: String) -> String {
        s.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
    }
}

/// A failed statement, with PostgreSQL's SQLSTATE.
struct PGError: Error, CustomStringConvertible {
    var sqlState: String
    var message: String
    var description: String { message }
}

/// One statement's result rows, as text.
final class PGResult {
    private let r: OpaquePointer
    init(_ r: OpaquePointer) { self.r = r }
    deinit { PQclear(r) }
    /// The number of rows.
    var count: Int { Int(PQntuples(r)) }
    /// The value at row `i`, column `j` (nil for NULL).
    func text(_ i: Int, _ j: Int) -> String? {
        if PQgetisnull(r, Int32(i), Int32(j)) == 1 { return nil }
        return String(cString: PQgetvalue(r, Int32(i), Int32(j)))
    }
    /// The value as an integer (0 for NULL).
    func int(_ i: Int, _ j: Int) -> Int64 { text(i, j).flatMap { Int64($0) } ?? 0 }
}
