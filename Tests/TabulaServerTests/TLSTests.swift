import Foundation
import Testing
import TabulaClient
import TabulaServer
import TabulaStorage

/// `--tls-port`: the same protocol in TLS 1.2/1.3 on the same loops, next to the plain port.
@Suite struct TLSTests {
    /// A self-signed certificate for localhost and 127.0.0.1 and its key, made by openssl.
    static func certificate() throws -> (cert: String, key: String) {
        let base = tempDB()
        let (cert, key) = (base + ".cert.pem", base + ".key.pem")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        p.arguments = [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-subj", "/CN=localhost",
            "-days", "2",
            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        return (cert, key)
    }

    static func withTLS(_ configure: (inout ServerConfig) -> Void = { _ in }, _ body: (Server, String) throws -> Void)
        throws
    {
        let (cert, key) = try certificate()
        try withServer({
            $0.tlsPort = 0
            $0.tlsCert = cert
            $0.tlsKey = key
            configure(&$0)
        }) { try body($0, cert) }
    }

    @Test func aConnectionThatNeverFinishesItsHandshakeIsClosedAfterTheHandshakeTimeout() throws {
        try Self.withTLS({ $0.handshakeTimeout = 1 }) { s, cert in
            let port = try #require(s.tlsPort)
            let secure = try TabulaConnection(.tls(host: "127.0.0.1", port: port, caFile: cert), timeout: 30)
            let stalled = try LineConnection(host: "127.0.0.1", port: port)  // TCP only: no ClientHello
            let words = try HygieneTests.lastWords(stalled, timeout: 10)
            #expect(words != "still open after 10.0 s", "closed well before the 60 s stall timeout")
            #expect(try secure.request("PING").isOK, "a connection past its handshake is not held to it")
        }
    }

    @Test func aTLSClientPastTheConnectionLimitIsToldSoInTLS() throws {
        try Self.withTLS({ $0.maxConnections = 1 }) { s, cert in
            let port = try #require(s.tlsPort)
            let kept = try TabulaConnection(.tls(host: "127.0.0.1", port: port, caFile: cert), timeout: 30)
            #expect(
                throws: ClientError.connectFailed(
                    "the server refused the connection: too many connections (limit 1); try again later")
            ) {
                _ = try TabulaConnection(.tls(host: "127.0.0.1", port: port, caFile: cert), timeout: 30)
            }
            #expect(try kept.request("PING").isOK)
        }
    }

    @Test func aTLSClientIsServedAndSeesEventsFromAPlainOne() throws {
        try Self.withTLS { s, cert in
            let port = try #require(s.tlsPort)
            let secure = try TabulaConnection(.tls(host: "127.0.0.1", port: port, caFile: cert), timeout: 30)
            #expect(secure.hello.hasPrefix("* HELLO tabula 3 "))
            #expect(try secure.request("WATCH /orders").isOK)
            let plain = try connect(s)
            #expect(try plain.request("ORDER pesto").isOK)
            #expect(try secure.waitPush(timeout: 5) { $0.contains("Pesto") } != nil)
        }
    }

    @Test func withoutThePlainPortOnlyTLSIsServed() throws {
        let (cert, key) = try Self.certificate()
        try withServer({
            $0.plainPort = false
            $0.tlsPort = 0
            $0.tlsCert = cert
            $0.tlsKey = key
        }) { s in
            #expect(s.port == 0)
            let secure = try TabulaConnection(
                .tls(host: "127.0.0.1", port: try #require(s.tlsPort), caFile: cert), timeout: 30)
            #expect(try secure.request("PING").isOK)
        }
    }

    @Test func largeRepliesCrossTLSWhole() throws {
        try Self.withTLS { s, cert in
            let secure = try TabulaConnection(
                .tls(host: "127.0.0.1", port: try #require(s.tlsPort), caFile: cert), timeout: 30)
            try secure.line.send(
                (0..<3_000).map { "ADD /items item-\($0)-\(String(repeating: "x", count: 60)) 5" }.joined(
                    separator: "\n"))
            for _ in 0..<3_000 { #expect(try secure.readReply(timeout: 30).isOK) }
            let r = try secure.request("LS /items LIMIT 10000", timeout: 30)
            #expect(r.data.filter { $0.contains("item-") }.count == 3_000)
        }
    }

    @Test func aClientThatDoesNotTrustTheCertificateIsRefusedByItsOwnCheck() throws {
        try Self.withTLS { s, _ in
            let port = try #require(s.tlsPort)
            #expect(throws: ClientError.self) {
                _ = try TabulaConnection(.tls(host: "127.0.0.1", port: port, caFile: nil), timeout: 5)
            }
            let plain = try connect(s)
            #expect(try plain.request("PING").isOK, "a failed handshake holds nobody up")
        }
    }

    @Test func unusableCertificateOrKeyFilesStopTheStartWithAMessage() throws {
        let (cert, key) = try Self.certificate()
        let otherKey = try Self.certificate().key
        for (c, k, says) in [
            ("/nonexistent.pem", key, "--tls-cert"), (cert, "/nonexistent.pem", "--tls-key"),
            (cert, otherKey, "mismatch"),
        ] {
            var config = ServerConfig()
            config.port = 0
            config.tlsPort = 0
            config.tlsCert = c
            config.tlsKey = k
            do {
                _ = try Server(config: config, store: MemoryStore())
                Issue.record("started with \(c) and \(k)")
            } catch {
                #expect("\(error)".contains(says), "\(error)")
            }
        }
    }
}
