import CLibPQ
import Foundation
import Glibc

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
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { v in
                PQconnectdbParams(k.baseAddress, v.baseAddress, 1)
            }
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

    /// The longest a statement may take before the connection is given up (a server that
    /// hangs without closing the socket): `ERR STORAGE` then, rather than a stuck engine.
    /// PostgreSQL's own `lock_timeout` (5 s) fires first for a head held by another node.
    static let statementTimeout = 10.0

    /// Runs SQL text (one statement or several; the result of the last is returned).
    @discardableResult
    func exec(_ sql: String, timeout: Double = PGConnection.statementTimeout) throws -> PGResult {
        try last(run(timeout) { PQsendQuery($0, sql) })
    }

    /// Runs SQL text of several statements and returns every statement's result, in one
    /// round trip (each statement sees what committed before it started).
    func execEach(_ sql: String, timeout: Double = PGConnection.statementTimeout) throws -> [PGResult] {
        try run(timeout) { PQsendQuery($0, sql) }
    }

    /// Runs SQL built as bytes.
    @discardableResult
    func exec(_ sql: SQLText, timeout: Double = PGConnection.statementTimeout) throws -> PGResult {
        try last(run(timeout) { c in sql.withCString { PQsendQuery(c, $0) } })
    }

    /// Runs one statement with text parameters ($1, $2, …; nil is NULL).
    @discardableResult
    func exec(_ sql: String, _ params: [String?], timeout: Double = PGConnection.statementTimeout) throws -> PGResult {
        let copies = params.map { $0.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        return try last(
            run(timeout) { c in
                copies.map { UnsafePointer($0) }.withUnsafeBufferPointer {
                    PQsendQueryParams(c, sql, Int32(params.count), nil, $0.baseAddress, nil, nil, 0)
                }
            })
    }

    private func last(_ results: [PGResult]) throws -> PGResult {
        guard let r = results.last else { throw StorageError("PostgreSQL returned no result") }
        return r
    }

    /// Sends with `send`, then waits for every result, at most `timeout` seconds in all
    /// (the socket is non-blocking, so neither sending nor reading can hang past it). On the
    /// deadline the connection is closed: the server rolls its transaction back.
    private func run(_ timeout: Double, _ send: (OpaquePointer) -> Int32) throws -> [PGResult] {
        guard let conn else { throw StorageError("the PostgreSQL connection is closed") }
        let deadline = Date().timeIntervalSince1970 + timeout
        PQsetnonblocking(conn, 1)
        guard send(conn) == 1 else { throw broken(conn) }
        while true {
            let f = PQflush(conn)
            if f == 0 { break }
            if f < 0 { throw broken(conn) }
            try waitFor(Int16(POLLIN | POLLOUT), conn, deadline, timeout)
            if PQconsumeInput(conn) == 0 { throw broken(conn) }
        }
        var out: [PGResult] = []
        var failure: Error?
        while true {
            while PQisBusy(conn) == 1 {
                try waitFor(Int16(POLLIN), conn, deadline, timeout)
                if PQconsumeInput(conn) == 0 { throw broken(conn) }
            }
            guard let r = PQgetResult(conn) else { break }
            do { out.append(try check(r)) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
        return out
    }

    private func waitFor(_ events: Int16, _ conn: OpaquePointer, _ deadline: Double, _ timeout: Double) throws {
        var pfd = pollfd(fd: PQsocket(conn), events: events, revents: 0)
        while true {
            let ms = Int32(max(0, (deadline - Date().timeIntervalSince1970) * 1000))
            let n = poll(&pfd, 1, ms)
            if n > 0 { return }
            if n < 0 && errno == EINTR { continue }
            close()
            throw StorageError(
                "PostgreSQL did not answer within \(Int(timeout)) s; the connection was dropped and will be made again")
        }
    }

    private func broken(_ conn: OpaquePointer) -> StorageError {
        StorageError("PostgreSQL: \(PGConnection.clean(String(cString: PQerrorMessage(conn))))")
    }

    private func check(_ r: OpaquePointer?) throws -> PGResult {
        guard let r else {
            throw StorageError("PostgreSQL: \(PGConnection.clean(String(cString: PQerrorMessage(conn))))")
        }
        let status = PQresultStatus(r)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let msg = PGConnection.clean(String(cString: PQresultErrorMessage(r)))
            let state = PQresultErrorField(r, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            PQclear(r)
            throw PGError(
                sqlState: state,
                message: "PostgreSQL: \(msg.isEmpty ? PGConnection.clean(String(cString: PQerrorMessage(conn))) : msg)")
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
